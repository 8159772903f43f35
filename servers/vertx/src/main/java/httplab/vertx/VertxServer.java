package httplab.vertx;

import httplab.server.DatabaseSettings;
import httplab.server.Launcher;
import httplab.server.ServerConfig;
import httplab.server.StartupLine;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.internal.VertxInternal;
import java.util.concurrent.TimeUnit;

/**
 * Hello-world HTTP server on Vert.x core: WORKERS event loops on the engine TRANSPORT names
 * (Engines), one verticle per loop, serving the PROTOCOL asked (Protocols), and /blocking's
 * wait on Vert.x's worker pool
 * (EXECUTOR=pool) or in virtual thread verticles (EXECUTOR=virtual, VirtualThreadWaits).
 */
public final class VertxServer {
    private static final String FRAMEWORK = "Vert.x";
    private static final String EVENT_LOOP_THREAD_PREFIX = "vert.x-eventloop-thread-";
    private static final long STARTUP_TIMEOUT_SECONDS = 30;
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 3;

    private VertxServer() {
    }

    public static void main(String[] args) {
        Launcher.run(FRAMEWORK, VertxServer::start);
    }

    private static void start() throws Exception {
        ServerConfig config = ServerConfig.fromEnvironment();
        // The worker pool, /blocking's with EXECUTOR=pool, keeps Vert.x's default size.
        VertxOptions options = new VertxOptions().setEventLoopPoolSize(config.workers());
        Vertx vertx = Vertx.builder().with(options)
                .withTransport(Engines.asked(config.transport())).build();
        String transport = Engines.inUse(vertx, config.transport());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> shutDown(vertx), "vertx-shutdown"));
        WorldQueries worlds = WorldQueries.open(vertx, DatabaseSettings.fromEnvironment(config));
        BlockingWait blockingWait = config.virtualThreads()
                ? await(VirtualThreadWaits.deploy(vertx))
                : Waits.onWorkerPool(vertx);
        HttpServerOptions serverOptions = Protocols.serverOptions(vertx, config);
        DeploymentOptions deployment = new DeploymentOptions().setInstances(config.workers());
        await(vertx.deployVerticle(() -> new HelloVerticle(config.bindAddress(), config.port(),
                serverOptions, worlds, blockingWait), deployment));
        startEveryLoop((VertxInternal) vertx);
        StartupLine.print(FRAMEWORK, VertxInternal.version(), transport, config.workers(),
                StartupLine.countLiveThreads(EVENT_LOOP_THREAD_PREFIX), config.endpoint(),
                blockingPool(config, options), worlds == null ? config.dbPool() : worlds.maxSize(),
                config.executor(),
                config.protocol(), Protocols.tlsEngine(serverOptions, config));
    }

    /**
     * The most waits /blocking runs at once: the worker pool's threads, or, on virtual
     * threads, no limit (Vert.x starts a virtual thread per executeBlocking and caps none),
     * which a count states as ServerConfig.MAX_WORKERS, as Helidon's manifest does.
     */
    private static int blockingPool(ServerConfig config, VertxOptions options) {
        return config.virtualThreads() ? ServerConfig.MAX_WORKERS : options.getWorkerPoolSize();
    }

    /** Event loop threads start on their first task; run one on each so they can be counted. */
    private static void startEveryLoop(VertxInternal vertx) throws InterruptedException {
        for (EventExecutor loop : vertx.nettyEventLoopGroup()) {
            loop.submit(() -> { }).sync();
        }
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture()
                .get(STARTUP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private static void shutDown(Vertx vertx) {
        try {
            vertx.close().toCompletionStage().toCompletableFuture()
                    .get(SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("httplab " + FRAMEWORK + ": shutdown did not finish cleanly: " + e);
        }
    }
}
