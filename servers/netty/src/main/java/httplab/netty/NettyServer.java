package httplab.netty;

import httplab.server.ConfigException;
import httplab.server.DatabaseSettings;
import httplab.server.JdbcWorlds;
import httplab.server.Launcher;
import httplab.server.ServerConfig;
import httplab.server.StartupLine;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.Version;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Hello-world HTTP/1.1 server on plain Netty: one acceptor loop, WORKERS I/O loops, and the
 * manifest's blocking_pool threads for /blocking, /db and /queries, the last two through a
 * HikariCP pool of db_pool JDBC connections when DB_PORT names a database.
 */
public final class NettyServer {
    private static final String FRAMEWORK = "Netty";
    private static final String WORKER_THREAD_PREFIX = "netty-worker";
    // DefaultThreadFactory names them netty-blocking-<pool>-<n>: the first 15 characters, all
    // Linux keeps of a name, are "netty-blocking-", the manifest's blocking_thread_prefix.
    private static final String BLOCKING_THREAD_PREFIX = "netty-blocking";
    private static final long QUIET_PERIOD_MILLIS = 100;
    private static final long SHUTDOWN_TIMEOUT_MILLIS = 3000;

    private NettyServer() {
    }

    public static void main(String[] args) {
        Launcher.run(FRAMEWORK, NettyServer::start);
    }

    private static void start() throws InterruptedException {
        ServerConfig config = ServerConfig.fromEnvironment();
        NettyTransport transport = NettyTransport.best();
        EventLoopGroup bossGroup = transport.newGroup(1, "netty-boss");
        EventLoopGroup workerGroup = transport.newGroup(config.workers(), WORKER_THREAD_PREFIX);
        DefaultEventExecutorGroup blockingGroup = newBlockingGroup(config.blockingPool());
        JdbcWorlds store = JdbcWorlds.open(DatabaseSettings.fromEnvironment(config));
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> shutDown(store, bossGroup, workerGroup, blockingGroup), "netty-shutdown"));
        DatabaseHandler database = new DatabaseHandler(store);
        Channel channel = bootstrap(transport, bossGroup, workerGroup, blockingGroup, database)
                .bind(new InetSocketAddress(config.bindAddress(), config.port())).sync().channel();
        startEveryLoop(workerGroup);
        StartupLine.print(FRAMEWORK, nettyVersion(), transport.displayName(), config.workers(),
                StartupLine.countLiveThreads(WORKER_THREAD_PREFIX + "-"), config.endpoint(),
                blockingGroup.executorCount(), store == null ? config.dbPool() : store.maximumPoolSize(), config.executor());
        channel.closeFuture().sync();
    }

    /** Netty has no default size for it: the manifest's blocking_pool gives the count. */
    private static DefaultEventExecutorGroup newBlockingGroup(int threads) {
        if (threads < 1) {
            throw new ConfigException("packaged manifest /httplab/server.toml: blocking_pool: "
                    + "Netty's DefaultEventExecutorGroup needs a count");
        }
        return new DefaultEventExecutorGroup(threads, new DefaultThreadFactory(BLOCKING_THREAD_PREFIX));
    }

    private static ServerBootstrap bootstrap(NettyTransport transport, EventLoopGroup bossGroup,
                                             EventLoopGroup workerGroup, EventExecutorGroup blockingGroup,
                                             DatabaseHandler database) {
        return new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(transport.serverChannelClass())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        ChannelPipeline pipeline = channel.pipeline();
                        pipeline.addLast(new HttpServerCodec(), HelloHandler.INSTANCE);
                        addBlockingHandlers(pipeline, blockingGroup, database);
                    }
                });
    }

    /**
     * DatabaseHandler's and BlockingHandler's methods run on the group's threads, as the
     * ChannelPipeline javadoc's example shows (https://netty.io/4.1/api/io/netty/channel/ChannelPipeline.html);
     * Netty 4.2 deprecates this overload, but keeps it working. A channel keeps one thread of
     * the group for both (ChannelOption.SINGLE_EVENTEXECUTOR_PER_GROUP, on by default), so
     * DatabaseHandler passes /blocking's requests on without a hop.
     */
    @SuppressWarnings("deprecation")
    private static void addBlockingHandlers(ChannelPipeline pipeline, EventExecutorGroup group,
                                            DatabaseHandler database) {
        pipeline.addLast(group, "database", database);
        pipeline.addLast(group, "blocking", BlockingHandler.INSTANCE);
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

    private static void shutDown(JdbcWorlds store, EventExecutorGroup... groups) {
        for (EventExecutorGroup group : groups) {
            group.shutdownGracefully(QUIET_PERIOD_MILLIS, SHUTDOWN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        }
        for (EventExecutorGroup group : groups) {
            group.terminationFuture().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MILLIS);
        }
        if (store != null) {
            store.close();
        }
    }
}
