package httplab.netty;

import httplab.server.DatabaseSettings;
import httplab.server.JdbcWorlds;
import httplab.server.Launcher;
import httplab.server.ServerConfig;
import httplab.server.StartupLine;
import httplab.server.netty.NettyEngine;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.util.Version;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Hello-world HTTP server on plain Netty, speaking PROTOCOL (HelloPipelines; its TLS: NettyTls,
 * whose engine the ready line names): one acceptor loop, WORKERS I/O loops on the engine
 * TRANSPORT names (common's NettyEngine; the ready line names the one the bound channel runs on), and the
 * manifest's blocking_pool threads (or, with EXECUTOR=virtual, a virtual thread per call:
 * BlockingExecutor) for /blocking, /db and /queries, the last two through a HikariCP pool of
 * db_pool JDBC connections when DB_PORT names a database.
 */
public final class NettyServer {
    private static final String FRAMEWORK = "Netty";
    private static final String WORKER_THREAD_PREFIX = "netty-worker";
    private static final long QUIET_PERIOD_MILLIS = 100;
    private static final long SHUTDOWN_TIMEOUT_MILLIS = 3000;

    private NettyServer() {
    }

    public static void main(String[] args) {
        Launcher.run(FRAMEWORK, NettyServer::start);
    }

    private static void start() throws InterruptedException {
        ServerConfig config = ServerConfig.fromEnvironment();
        NettyEngine engine = NettyEngine.startable(config.transport());
        SslContext tls = NettyTls.contextFor(config);
        EventLoopGroup bossGroup = engine.newGroup(1, new DefaultThreadFactory("netty-boss"));
        EventLoopGroup workerGroup = engine.newGroup(config.workers(),
                new DefaultThreadFactory(WORKER_THREAD_PREFIX));
        BlockingExecutor blocking = BlockingExecutor.of(config);
        JdbcWorlds store = JdbcWorlds.open(DatabaseSettings.fromEnvironment(config));
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> shutDown(store, blocking, bossGroup, workerGroup), "netty-shutdown"));
        HelloPipelines pipelines = new HelloPipelines(config.protocol(), tls, blocking,
                new DatabaseHandler(store, blocking), new BlockingHandler(blocking));
        Channel channel = bootstrap(engine, bossGroup, workerGroup, pipelines)
                .bind(new InetSocketAddress(config.bindAddress(), config.port())).sync().channel();
        startEveryLoop(workerGroup);
        StartupLine.print(FRAMEWORK, nettyVersion(), NettyEngine.inUse(channel), config.workers(),
                StartupLine.countLiveThreads(WORKER_THREAD_PREFIX + "-"), config.endpoint(),
                blocking.poolThreads(), store == null ? config.dbPool() : store.maximumPoolSize(), config.executor(),
                config.protocol(), NettyTls.engineOf(tls));
        channel.closeFuture().sync();
    }

    private static ServerBootstrap bootstrap(NettyEngine engine, EventLoopGroup bossGroup,
                                             EventLoopGroup workerGroup, HelloPipelines pipelines) {
        return new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(engine.serverChannelClass())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(pipelines);
    }

    /** Event loop threads start on their first task; run one on each so they can be counted. */
    private static void startEveryLoop(EventLoopGroup group) throws InterruptedException {
        for (EventExecutor loop : group) {
            loop.submit(() -> { }).sync();
        }
    }

    private static String nettyVersion() {
        Version version = Version.identify().get("netty-common");
        return version == null ? "unknown" : version.artifactVersion();
    }

    private static void shutDown(JdbcWorlds store, BlockingExecutor blocking, EventExecutorGroup... groups) {
        Future<?> blockingStopped = blocking.shutdownGracefully(QUIET_PERIOD_MILLIS, SHUTDOWN_TIMEOUT_MILLIS);
        for (EventExecutorGroup group : groups) {
            group.shutdownGracefully(QUIET_PERIOD_MILLIS, SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        }
        blockingStopped.awaitUninterruptibly(SHUTDOWN_TIMEOUT_MILLIS);
        for (EventExecutorGroup group : groups) {
            group.terminationFuture().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MILLIS);
        }
        if (store != null) {
            store.close();
        }
    }
}
