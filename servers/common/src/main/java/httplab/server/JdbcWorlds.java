package httplab.server;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The world table through JDBC: a HikariCP pool of PostgreSQL JDBC connections, for the
 * servers whose framework has no database client of its own (Netty, Armeria). JDBC blocks
 * the calling thread, so each server calls it only from its blocking pool. HikariCP: the
 * common JDBC pool, whose defaults the lab keeps but for the size, set from the manifest's
 * db_pool (its default maximumPoolSize, 10:
 * https://github.com/brettwooldridge/HikariCP#gear-configuration-knobs-baby). A server that
 * uses this class depends on HikariCP and the PostgreSQL driver itself (optional here).
 */
public final class JdbcWorlds implements AutoCloseable {
    private final HikariDataSource dataSource;

    private JdbcWorlds(HikariDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** A pool of settings.poolSize() connections, or null without a database (no settings). */
    public static JdbcWorlds open(DatabaseSettings settings) {
        return settings == null ? null : new JdbcWorlds(dataSource(settings));
    }

    /**
     * The pool itself, for a server whose framework runs the statements (Helidon's DB
     * Client): HikariCP's defaults but for the size, settings.poolSize().
     */
    public static HikariDataSource dataSource(DatabaseSettings settings) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("httplab-db");
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.user());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(settings.poolSize());
        // -1: start without a connection; the pool connects in the background, so the server
        // is ready even while the database is not.
        config.setInitializationFailTimeout(-1);
        return new HikariDataSource(config);
    }

    /** The pool's size as HikariCP holds it: the ready line's db_pool. */
    public int maximumPoolSize() {
        return dataSource.getMaximumPoolSize();
    }

    /** count random rows, one statement each, on one connection borrowed for the request. */
    public List<World> randomWorlds(int count) throws SQLException {
        List<World> worlds = new ArrayList<>(count);
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(World.SELECT_JDBC)) {
            for (int i = 0; i < count; i++) {
                select.setInt(1, World.randomId());
                worlds.add(readOne(select));
            }
        }
        return worlds;
    }

    private static World readOne(PreparedStatement select) throws SQLException {
        try (ResultSet row = select.executeQuery()) {
            if (!row.next()) {
                throw new SQLException("no row in world for the id asked");
            }
            return new World(row.getInt(1), row.getInt(2));
        }
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
