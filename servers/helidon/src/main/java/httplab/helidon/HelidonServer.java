package httplab.helidon;

import httplab.server.DatabaseSettings;
import httplab.server.Launcher;
import httplab.server.ServerConfig;
import httplab.server.StartupLine;
import io.helidon.common.Version;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import java.net.BindException;

/**
 * Helidon SE 4's WebServer (Níma): every request on a virtual thread of its own, which the
 * JDK's scheduler runs on WORKERS carrier threads (default: its manifest, one per CPU);
 * /db and /queries through Helidon's DB Client over JDBC when DB_PORT names a database;
 * PROTOCOL's TLS and HTTP/2 as Protocols sets them up.
 * Helidon stops the server itself on SIGTERM (its WebServer's shutdown hook).
 */
public final class HelidonServer {
    static final String FRAMEWORK = "Helidon";
    /** Helidon's listener reads and writes through NIO socket channels (use-nio, on by default). */
    private static final String TRANSPORT = "nio";
    /** Helidon's max-concurrent-requests when unset: no limit. */
    private static final int UNLIMITED = -1;

    private HelidonServer() {
    }

    public static void main(String[] args) {
        Launcher.run(FRAMEWORK, HelidonServer::start);
    }

    private static void start() throws BindException, InterruptedException, ReflectiveOperationException {
        ServerConfig config = ServerConfig.fromEnvironment();
        int carriers = CarrierThreads.start(config.workers());
        Worlds worlds = Worlds.open(DatabaseSettings.fromEnvironment(config));
        WebServerConfig.Builder builder = WebServer.builder()
                .host(config.bindAddress())
                .port(config.port())
                // TCP_NODELAY, as every other server here has it. Helidon's tcp-no-delay is
                // off by default (https://helidon.io/docs/latest/config/io.helidon.common.socket.socketoptions):
                // over HTTP/2, whose HEADERS and DATA frames go out in two writes, Nagle then
                // holds the DATA until the client's delayed ACK, about 40 ms a request.
                .connectionOptions(options -> options.tcpNoDelay(true))
                .routing(routing -> Routes.add(routing, worlds));
        Protocols.configure(builder, config);
        WebServerConfig server = builder.buildPrototype();
        if (!WebServer.create(server).start().isRunning()) {
            // Helidon logs why its listener did not start (binding its socket) and stops.
            throw new BindException("Helidon's listener did not start (its log above says why)");
        }
        if (worlds != null) {
            Runtime.getRuntime().addShutdownHook(new Thread(worlds::close, "helidon-db-close"));
        }
        StartupLine.print(FRAMEWORK, helidonVersion(), TRANSPORT, config.workers(), carriers,
                config.endpoint(), concurrentRequests(server, config),
                worlds == null ? config.dbPool() : worlds.poolSize(), config.executor(),
                config.protocol(), Protocols.tlsEngine(server));
    }

    /**
     * The most requests, each on its virtual thread, Helidon runs at once: its
     * max-concurrent-requests when set; unset (its default), the manifest's stand-in for
     * "no limit". The server sets no other concurrency limit.
     */
    private static int concurrentRequests(WebServerConfig server, ServerConfig config) {
        int limit = server.maxConcurrentRequests();
        return limit == UNLIMITED ? config.blockingPool() : limit;
    }

    /** Read at run time: the constant itself would be inlined here by the compiler. */
    private static String helidonVersion() throws ReflectiveOperationException {
        return (String) Version.class.getField("VERSION").get(null);
    }
}
