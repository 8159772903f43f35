package httplab.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The worker default, the port and a fixed blocking pool size from the server's own
 * server.toml, which the build packages into the jar (servers/pom.xml), so the manifest is
 * their one statement. blockingPool is 0 when the manifest gives no count (the pool is the
 * framework's own default, which the server reads from the framework). dbPool is the
 * manifest's db_pool, the database connection pool's size (0 for a server without one).
 * executors are where the server can run its blocking work (EXECUTOR), transports the I/O
 * engines it can run on (TRANSPORT), each its own way first; protocols what it can speak
 * (PROTOCOL).
 */
record ManifestDefaults(int port, int workers, int blockingPool, int dbPool, List<String> executors,
                        List<String> transports, List<String> protocols) {
    static final String RESOURCE = "/httplab/server.toml";
    static final String CPUS = "cpus";

    /** Reads the packaged manifest; throws ConfigException when it is missing or broken. */
    static ManifestDefaults load(int cpus) {
        try (InputStream in = ManifestDefaults.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new ConfigException("no " + RESOURCE + " in the jar: rebuild it with `make jars`");
            }
            return fromText(new String(in.readAllBytes(), StandardCharsets.UTF_8), cpus);
        } catch (IOException e) {
            throw new ConfigException("cannot read " + RESOURCE + " from the jar: " + e.getMessage());
        }
    }

    static ManifestDefaults fromText(String text, int cpus) {
        Map<String, String> values;
        try {
            values = FlatToml.parse(text);
        } catch (IllegalArgumentException e) {
            throw broken(e.getMessage());
        }
        return new ManifestDefaults(port(values), workers(values, cpus),
                count(values, "blocking_pool"), count(values, "db_pool"),
                choices(values, "executors", ServerConfig.EXECUTORS),
                choices(values, "transports", ServerConfig.TRANSPORTS),
                values.containsKey("protocols") ? choices(values, "protocols", ServerConfig.PROTOCOLS)
                        : List.of(ServerConfig.H1));
    }

    /** A comma-separated list of some of the allowed values, such as executors = "pool,virtual". */
    private static List<String> choices(Map<String, String> values, String key, List<String> allowed) {
        List<String> chosen = Arrays.stream(required(values, key).split(",")).map(String::strip).toList();
        for (String value : chosen) {
            if (!allowed.contains(value)) {
                throw broken(key + ": '" + value + "' is not one of " + allowed);
            }
        }
        return chosen;
    }

    private static int port(Map<String, String> values) {
        String raw = required(values, "port");
        Integer port = integerOrNull(raw);
        if (port == null || port < 1 || port > 65535) {
            throw broken("port: '" + raw + "' is not a port (1-65535)");
        }
        return port;
    }

    /** "cpus" means one per processor this process may use; otherwise a count. */
    private static int workers(Map<String, String> values, int cpus) {
        String raw = required(values, "workers");
        if (CPUS.equals(raw)) {
            return cpus;
        }
        Integer workers = integerOrNull(raw);
        if (workers == null || workers < 1 || workers > ServerConfig.MAX_WORKERS) {
            throw broken("workers: '" + raw + "' is not \"" + CPUS + "\" or a count from 1 to "
                    + ServerConfig.MAX_WORKERS);
        }
        return workers;
    }

    /** A pool size: a count, or 0 when the key is absent or an expression over the CPUs. */
    private static int count(Map<String, String> values, String key) {
        Integer count = integerOrNull(values.getOrDefault(key, ""));
        if (count != null && (count < 1 || count > ServerConfig.MAX_WORKERS)) {
            throw broken(key + ": '" + count + "' is not a count from 1 to "
                    + ServerConfig.MAX_WORKERS);
        }
        return count == null ? 0 : count;
    }

    private static String required(Map<String, String> values, String key) {
        String raw = values.get(key);
        if (raw == null) {
            throw broken(key + ": missing");
        }
        return raw;
    }

    private static Integer integerOrNull(String raw) {
        try {
            return Integer.valueOf(raw);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static ConfigException broken(String detail) {
        return new ConfigException("packaged manifest " + RESOURCE + ": " + detail);
    }
}
