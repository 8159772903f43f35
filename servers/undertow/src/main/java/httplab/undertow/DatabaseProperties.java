package httplab.undertow;

import httplab.server.DatabaseSettings;
import java.util.Map;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;

/**
 * The DB_* variables as Spring Boot's DataSource properties: Boot then builds a HikariCP
 * DataSource from them, with the manifest's db_pool as its maximumPoolSize, and a JdbcTemplate
 * on it (https://docs.spring.io/spring-boot/reference/data/sql.html#data.sql.datasource).
 * HikariCP opens no connection before the first query, so the server starts whether or not
 * the database accepts yet. Without DB_PORT the DataSource auto-configuration, which would
 * fail for want of a URL, is left out, and with it the JdbcTemplate.
 */
final class DatabaseProperties {
    private DatabaseProperties() {
    }

    static Map<String, Object> of(DatabaseSettings database) {
        if (database == null) {
            return Map.of("spring.autoconfigure.exclude", DataSourceAutoConfiguration.class.getName());
        }
        return Map.of(
                "spring.datasource.url", database.jdbcUrl(),
                "spring.datasource.username", database.user(),
                "spring.datasource.password", database.password(),
                "spring.datasource.hikari.maximum-pool-size", database.poolSize());
    }
}
