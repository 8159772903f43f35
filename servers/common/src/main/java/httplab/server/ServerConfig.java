package httplab.server;

import java.util.List;
import java.util.Map;

/**
 * The settings every httplab server takes from its environment: PORT and WORKERS
 * (defaults: the server's manifest, packaged in its jar), BIND_ADDRESS (default 0.0.0.0) and
 * EXECUTOR, where blocking work runs: "pool" (the framework's pool) or "virtual" (a virtual
 * thread per task), of the manifest's executors (default: its first); and TRANSPORT, the I/O
 * engine under the framework ("nio", "epoll" or "io_uring"), of the manifest's transports
 * (default: its first). Whether the engine can start here is the framework's to say.
 * PROTOCOL is what the server speaks on its port ("h1", "h1-tls", "h2c" or "h2"), of the
 * manifest's protocols (default: "h1"); the TLS ones take the run's certificate chain and key
 * as PEM files, TLS_CERT and TLS_KEY, which the lab makes for each run.
 */
public final class ServerConfig {
    public static final String DEFAULT_BIND_ADDRESS = "0.0.0.0";
    /** The largest count a server takes; as a pool's size it stands for "no limit". */
    public static final int MAX_WORKERS = 100_000;
    public static final String POOL = "pool";
    public static final List<String> EXECUTORS = List.of(POOL, ThreadKind.VIRTUAL);
    public static final String NIO = "nio";
    public static final String EPOLL = "epoll";
    public static final String IO_URING = "io_uring";
    public static final List<String> TRANSPORTS = List.of(NIO, EPOLL, IO_URING);
    public static final String H1 = "h1";
    public static final String H1_TLS = "h1-tls";
    public static final String H2C = "h2c";
    public static final String H2 = "h2";
    public static final List<String> PROTOCOLS = List.of(H1, H1_TLS, H2C, H2);

    private final String bindAddress;
    private final int port;
    private final int workers;
    private final int blockingPool;
    private final int dbPool;
    private final String executor;
    private final String transport;
    private final String protocol;
    private final TlsFiles tls;

    private ServerConfig(String bindAddress, int port, int workers, int blockingPool, int dbPool,
                         String executor, String transport, String protocol, TlsFiles tls) {
        this.bindAddress = bindAddress;
        this.port = port;
        this.workers = workers;
        this.blockingPool = blockingPool;
        this.dbPool = dbPool;
        this.executor = executor;
        this.transport = transport;
        this.protocol = protocol;
        this.tls = tls;
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
        String protocol = protocol(env, defaults.protocols());
        return new ServerConfig(bind, port, workers, defaults.blockingPool(), defaults.dbPool(),
                executor(env, defaults.executors()), transport(env, defaults.transports()),
                protocol, TlsFiles.fromMap(env, protocol));
    }

    /** PROTOCOL, one of the manifest's protocols (default h1). */
    static String protocol(Map<String, String> env, List<String> protocols) {
        String raw = env.getOrDefault("PROTOCOL", "").strip();
        String protocol = raw.isEmpty() ? H1 : raw;
        if (!PROTOCOLS.contains(protocol)) {
            throw new ConfigException("PROTOCOL must be one of " + PROTOCOLS + ", got '" + raw + "'");
        }
        if (!protocols.contains(protocol)) {
            throw new ConfigException("PROTOCOL=" + protocol + ": this server speaks "
                    + String.join(", ", protocols) + " only (its server.toml protocols)");
        }
        return protocol;
    }

    /** TRANSPORT, one of the manifest's transports. */
    static String transport(Map<String, String> env, List<String> transports) {
        String raw = env.getOrDefault("TRANSPORT", "").strip();
        String transport = raw.isEmpty() ? transports.get(0) : raw;
        if (!TRANSPORTS.contains(transport)) {
            throw new ConfigException("TRANSPORT must be one of " + TRANSPORTS + ", got '" + raw + "'");
        }
        if (!transports.contains(transport)) {
            throw new ConfigException("TRANSPORT=" + transport + ": this server runs on "
                    + String.join(" or ", transports) + " only (its server.toml transports)");
        }
        return transport;
    }

    /** EXECUTOR, one of the manifest's executors; "virtual" only on a JVM that has them. */
    static String executor(Map<String, String> env, List<String> executors) {
        String raw = env.getOrDefault("EXECUTOR", "").strip();
        String executor = raw.isEmpty() ? executors.get(0) : raw;
        if (!EXECUTORS.contains(executor)) {
            throw new ConfigException("EXECUTOR must be one of " + EXECUTORS + ", got '" + raw + "'");
        }
        if (!executors.contains(executor)) {
            throw new ConfigException("EXECUTOR=" + executor + ": this server runs its blocking "
                    + "work on " + String.join(" or ", executors) + " only (its server.toml executors)");
        }
        if (executor.equals(ThreadKind.VIRTUAL) && !ThreadKind.available()) {
            throw new ConfigException(ThreadKind.needsJava21());
        }
        return executor;
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

    /** Where blocking work runs: POOL or ThreadKind.VIRTUAL. */
    public String executor() {
        return executor;
    }

    /** The I/O engine asked for: NIO, EPOLL or IO_URING. */
    public String transport() {
        return transport;
    }

    /** What the server speaks on its port: H1, H1_TLS, H2C or H2. */
    public String protocol() {
        return protocol;
    }

    /** Whether the protocol runs over TLS (h1-tls, h2): then tls() holds the run's files. */
    public boolean usesTls() {
        return usesTls(protocol);
    }

    /** Whether the protocol is HTTP/2 (h2c with prior knowledge, h2 negotiated by ALPN). */
    public boolean usesHttp2() {
        return protocol.equals(H2C) || protocol.equals(H2);
    }

    static boolean usesTls(String protocol) {
        return protocol.equals(H1_TLS) || protocol.equals(H2);
    }

    /** The run's certificate chain and key; null for a protocol without TLS. */
    public TlsFiles tls() {
        return tls;
    }

    public boolean virtualThreads() {
        return executor.equals(ThreadKind.VIRTUAL);
    }

    public String endpoint() {
        return bindAddress + ":" + port;
    }
}
