package httplab.armeria;

import com.linecorp.armeria.common.util.EventLoopGroups;
import com.linecorp.armeria.common.util.Version;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.Server;
import com.linecorp.armeria.server.ServerBuilder;
import httplab.server.DatabaseSettings;
import httplab.server.Hello;
import httplab.server.JdbcWorlds;
import httplab.server.Launcher;
import httplab.server.ServerConfig;
import httplab.server.StartupLine;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Hello-world HTTP server on Armeria, speaking PROTOCOL (ArmeriaProtocol), with WORKERS worker
 * event loops (default: its manifest) on the I/O engine TRANSPORT names (ArmeriaTransport), its
 * blocking work on the pool or on
 * virtual threads (EXECUTOR); /db and /queries through a HikariCP pool of db_pool JDBC
 * connections when DB_PORT names a database.
 */
public final class ArmeriaServer {
    private static final String FRAMEWORK = "Armeria";
    private static final String WORKER_THREAD_PREFIX = "armeria-eventloop-";
    private static final Duration QUIET_PERIOD = Duration.ofMillis(100);
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(3);
    // With the server stopped the loops are idle; together the waits stay under 5 s.
    private static final Duration WORKER_SHUTDOWN_TIMEOUT = Duration.ofSeconds(1);

    private ArmeriaServer() {
    }

    public static void main(String[] args) {
        Launcher.run(FRAMEWORK, ArmeriaServer::start);
    }

    private static void start() throws Exception {
        ServerConfig config = ServerConfig.fromEnvironment();
        ArmeriaTransport.ask(config.transport());
        EventLoopGroup workers = EventLoopGroups.newEventLoopGroup(config.workers());
        JdbcWorlds store = JdbcWorlds.open(DatabaseSettings.fromEnvironment(config));
        Server server = buildServer(config, workers, store);
        Runtime.getRuntime().addShutdownHook(
                new Thread(() -> shutDown(server, workers, store), "armeria-shutdown"));
        server.start().join();
        startEveryLoop(workers);
        StartupLine.print(FRAMEWORK, Version.get("armeria").artifactVersion(),
                ArmeriaTransport.inUse(server, config.transport()),
                config.workers(), StartupLine.countLiveThreads(WORKER_THREAD_PREFIX), config.endpoint(),
                BlockingPool.maxThreads(server), store == null ? config.dbPool() : store.maximumPoolSize(), config.executor(),
                config.protocol(), ArmeriaProtocol.tlsEngine(server));
    }

    /**
     * The worker group is ours to close: Netty's default 2 s quiet period would delay exit.
     * /blocking, /db and /queries run on the blocking task executor: Armeria's common one
     * (EXECUTOR=pool), or one that starts a virtual thread per task (virtual), which the
     * server shuts down when it stops.
     */
    private static Server buildServer(ServerConfig config, EventLoopGroup workers, JdbcWorlds store) {
        HttpService hello = (ctx, request) -> HelloResponses.HELLO.toHttpResponse();
        ServerBuilder builder = Server.builder();
        if (config.virtualThreads()) {
            builder.blockingTaskExecutor(new VirtualThreadExecutor(), true);
        }
        return ArmeriaProtocol.listen(builder, config)
                .workerGroup(workers, false)
                .route().get(Hello.ROOT_PATH).build(hello)
                .route().get(Hello.PLAINTEXT_PATH).build(hello)
                .route().get(Hello.JSON_PATH).build(new JsonService())
                .route().get(Hello.DELAY_PATH).build(new DelayService())
                .route().get(Hello.BLOCKING_PATH).build(new BlockingService())
                .route().get(Hello.DB_PATH).build(new DatabaseService(store, false))
                .route().get(Hello.QUERIES_PATH).build(new DatabaseService(store, true))
                .errorHandler(new HelloErrorHandler())
                .gracefulShutdownTimeout(QUIET_PERIOD, SHUTDOWN_TIMEOUT)
                .build();
    }

    /** Event loop threads start on their first task; run one on each so they can be counted. */
    private static void startEveryLoop(EventLoopGroup group) throws InterruptedException {
        for (EventExecutor loop : group) {
            loop.submit(() -> { }).sync();
        }
    }

    /**
     * Bounded, so SIGTERM always ends the process: stopping takes about 2 s because Armeria
     * closes its acceptor group with Netty's default quiet period, which it does not expose.
     */
    private static void shutDown(Server server, EventLoopGroup workers, JdbcWorlds store) {
        try {
            server.stop().get(SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            System.err.println("httplab " + FRAMEWORK + ": server did not stop cleanly: " + e);
        }
        long timeoutMillis = WORKER_SHUTDOWN_TIMEOUT.toMillis();
        workers.shutdownGracefully(QUIET_PERIOD.toMillis(), timeoutMillis, TimeUnit.MILLISECONDS)
                .awaitUninterruptibly(timeoutMillis);
        if (store != null) {
            store.close();
        }
    }
}
