package httplab.tomcat;

import httplab.server.DatabaseSettings;
import java.util.Map;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;

/**
 * The DB_* variables as Spring Boot's DataSource properties, from which Boot builds a
 * HikariCP DataSource (its maximumPoolSize the manifest's db_pool) and a JdbcTemplate on it
 * (https://docs.spring.io/spring-boot/reference/data/sql.html#data.sql.datasource).
 * HikariCP connects at the first query, so the server starts whether the database accepts
 * yet or not. Without DB_PORT, the DataSource auto-configuration (which would fail for want
 * of a URL) is excluded, and the JdbcTemplate with it.
 */
final class DatabaseProperties {
    private DatabaseProperties() {
    }

    static Map<String, Object> of(DatabaseSettings database) {
        return database == null
                ? Map.of("spring.autoconfigure.exclude", DataSourceAutoConfiguration.class.getName())
                : Map.of("spring.datasource.url", database.jdbcUrl(),
                        "spring.datasource.username", database.user(),
                        "spring.datasource.password", database.password(),
                        "spring.datasource.hikari.maximum-pool-size", database.poolSize());
    }
}
