package httplab.webflux;

import httplab.server.DatabaseSettings;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.PoolMetrics;
import java.util.Map;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration;
import org.springframework.context.ApplicationContext;

/**
 * The DB_* variables as Spring Boot's R2DBC properties: Boot then builds an r2dbc-pool
 * ConnectionPool over r2dbc-postgresql from them, with the manifest's db_pool as its maxSize,
 * and a DatabaseClient on it (https://docs.spring.io/spring-boot/reference/data/sql.html#data.sql.r2dbc).
 * The pool opens no connection before the first query, so the server starts whether or not
 * the database accepts yet. Without DB_PORT the R2DBC auto-configuration, which would fail
 * for want of a URL, is left out, and with it the DatabaseClient.
 */
final class DatabaseProperties {
    private DatabaseProperties() {
    }

    static Map<String, Object> of(DatabaseSettings database) {
        if (database == null) {
            return Map.of("spring.autoconfigure.exclude", R2dbcAutoConfiguration.class.getName());
        }
        return Map.of(
                "spring.r2dbc.url", database.r2dbcUrl(),
                "spring.r2dbc.username", database.user(),
                "spring.r2dbc.password", database.password(),
                "spring.r2dbc.pool.max-size", database.poolSize());
    }

    /** The most connections the pool reports it may open; without a database, fallback. */
    static int poolSize(ApplicationContext context, int fallback) {
        ConnectionPool pool = context.getBeanProvider(ConnectionPool.class).getIfAvailable();
        if (pool == null) {
            return fallback;
        }
        return pool.getMetrics().map(PoolMetrics::getMaxAllocatedSize).orElse(0);
    }
}
