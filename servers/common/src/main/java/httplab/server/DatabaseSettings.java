package httplab.server;

import java.util.Map;

/**
 * Where the database of the db and queries workloads is: the DB_* variables the harness
 * sets when it starts one (docker-compose.yml passes them on), and the connection pool
 * size of the server's manifest (db_pool). Without DB_PORT there is no database: the
 * server starts all the same, and /db and /queries answer 503.
 */
public record DatabaseSettings(String host, int port, String name, String user, String password,
                               int poolSize) {
    public static final String HOST = "DB_HOST";
    public static final String PORT = "DB_PORT";
    public static final String NAME = "DB_NAME";
    public static final String USER = "DB_USER";
    public static final String PASSWORD = "DB_PASSWORD";
    /** What /db and /queries say, with 503, when the server was started without a database. */
    public static final String NOT_CONFIGURED = "no database: start the server with " + PORT
            + " (the harness sets it for WORKLOAD=db or queries)";

    /** The settings of this process's environment, or null when DB_PORT is unset. */
    public static DatabaseSettings fromEnvironment(ServerConfig config) {
        return fromMap(System.getenv(), config.dbPool());
    }

    static DatabaseSettings fromMap(Map<String, String> env, int poolSize) {
        String port = env.get(PORT);
        if (port == null || port.isBlank()) {
            return null;
        }
        return new DatabaseSettings(required(env, HOST), ServerConfig.parseInt(env, PORT, 0, 1, 65535),
                required(env, NAME), required(env, USER), env.getOrDefault(PASSWORD, ""), poolSize);
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new ConfigException(name + " must be set when " + PORT + " is");
        }
        return value.trim();
    }

    /** jdbc:postgresql://host:port/name, for JDBC drivers. */
    public String jdbcUrl() {
        return "jdbc:" + postgresqlUrl();
    }

    /** r2dbc:postgresql://host:port/name, for R2DBC drivers. */
    public String r2dbcUrl() {
        return "r2dbc:" + postgresqlUrl();
    }

    private String postgresqlUrl() {
        return "postgresql://" + host + ":" + port + "/" + name;
    }
}
