package httplab.server;

import java.util.Map;

/**
 * The settings every httplab server takes from its environment: PORT and WORKERS
 * (defaults: the server's manifest, packaged in its jar) and BIND_ADDRESS (default 0.0.0.0).
 */
public final class ServerConfig {
    public static final String DEFAULT_BIND_ADDRESS = "0.0.0.0";
    static final int MAX_WORKERS = 100_000;

    private final String bindAddress;
    private final int port;
    private final int workers;
    private final int blockingPool;
    private final int dbPool;

    private ServerConfig(String bindAddress, int port, int workers, int blockingPool, int dbPool) {
        this.bindAddress = bindAddress;
        this.port = port;
        this.workers = workers;
        this.blockingPool = blockingPool;
        this.dbPool = dbPool;
    }

    /**
     * Reads the process environment over the packaged manifest's defaults; throws
     * ConfigException on a bad value or a missing or broken manifest.
     */
    public static ServerConfig fromEnvironment() {
        return fromMap(System.getenv(), ManifestDefaults.load(availableCpus()));
    }

    static ServerConfig fromMap(Map<String, String> env, ManifestDefaults defaults) {
        int port = parseInt(env, "PORT", defaults.port(), 1, 65535);
        int workers = parseInt(env, "WORKERS", defaults.workers(), 1, MAX_WORKERS);
        String bind = env.getOrDefault("BIND_ADDRESS", DEFAULT_BIND_ADDRESS).trim();
        if (bind.isEmpty()) {
            throw new ConfigException("BIND_ADDRESS must not be empty");
        }
        return new ServerConfig(bind, port, workers, defaults.blockingPool(), defaults.dbPool());
    }

    static int parseInt(Map<String, String> env, String name, int fallback, int min, int max) {
        String raw = env.get(name);
        if (raw == null || raw.isBlank()) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(raw.trim());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the accepted range
        }
        throw new ConfigException(
                name + " must be an integer from " + min + " to " + max + ", got '" + raw + "'");
    }

    /** The number of CPUs this process may use: what workers = "cpus" means. */
    static int availableCpus() {
        return Runtime.getRuntime().availableProcessors();
    }

    public String bindAddress() {
        return bindAddress;
    }

    public int port() {
        return port;
    }

    public int workers() {
        return workers;
    }

    /** The manifest's blocking_pool count; 0 when the pool is the framework's default. */
    public int blockingPool() {
        return blockingPool;
    }

    /** The manifest's db_pool: the database connection pool's size; 0 without one. */
    public int dbPool() {
        return dbPool;
    }

    public String endpoint() {
        return bindAddress + ":" + port;
    }
}
