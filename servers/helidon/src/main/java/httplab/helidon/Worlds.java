package httplab.helidon;

import com.zaxxer.hikari.HikariDataSource;
import httplab.server.DatabaseSettings;
import httplab.server.JdbcWorlds;
import httplab.server.World;
import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbClientException;
import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbRow;
import io.helidon.dbclient.jdbc.JdbcClientBuilder;
import io.helidon.dbclient.jdbc.JdbcConnectionPool;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The world table through Helidon's DB Client over JDBC
 * (https://helidon.io/docs/v4/se/dbclient): one get statement per row, each on a connection
 * of a HikariCP pool, the pool Helidon's DB Client guide uses
 * (https://helidon.io/docs/v4/se/guides/dbclient: its helidon-dbclient-hikari provider,
 * which this lab's Maven mirror does not serve at Helidon 4.5.0, so the client gets the
 * same pool through its JdbcConnectionPool interface). The DB Client blocks: it runs on
 * the request's own virtual thread.
 */
final class Worlds implements AutoCloseable {
    private final HikariDataSource pool;
    private final DbClient client;

    private Worlds(HikariDataSource pool) {
        this.pool = pool;
        this.client = JdbcClientBuilder.create().connectionPool(connections(pool)).build();
    }

    /** A client on a pool of settings.poolSize() connections, or null without a database. */
    static Worlds open(DatabaseSettings settings) {
        return settings == null ? null : new Worlds(JdbcWorlds.dataSource(settings));
    }

    private static JdbcConnectionPool connections(HikariDataSource pool) {
        return () -> {
            try {
                return pool.getConnection();
            } catch (SQLException e) {
                throw new DbClientException("no connection from the pool: " + e.getMessage(), e);
            }
        };
    }

    /** The pool's size as HikariCP holds it: the ready line's db_pool. */
    int poolSize() {
        return pool.getMaximumPoolSize();
    }

    /** count random rows, one statement each. */
    List<World> randomWorlds(int count) {
        DbExecute execute = client.execute();
        List<World> worlds = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            DbRow row = execute.get(World.SELECT_JDBC, World.randomId())
                    .orElseThrow(() -> new DbClientException("no row in world for the id asked"));
            worlds.add(new World(row.column(1).get(Integer.class), row.column(2).get(Integer.class)));
        }
        return worlds;
    }

    @Override
    public void close() {
        client.close();
        pool.close();
    }
}
