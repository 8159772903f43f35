package httplab.netty;

import httplab.server.ConfigException;
import httplab.server.ServerConfig;
import httplab.server.ThreadKind;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Where the blocking calls of /blocking, /db and /queries run (EXECUTOR), and how their
 * answers are written.
 * pool: their handlers run on a DefaultEventExecutorGroup, as the ChannelPipeline javadoc's
 * example shows (https://netty.io/4.1/api/io/netty/channel/ChannelPipeline.html): the call
 * runs in place, on the group's thread, which writes the answer.
 * virtual: their handlers run on the channel's event loop, which must never block, so each
 * call runs on a new virtual thread (Executors.newVirtualThreadPerTaskExecutor) and hands its
 * answer back to the event loop, which writes it: Netty 4 gives each channel's I/O to its
 * event loop (https://netty.io/wiki/new-and-noteworthy-in-4.0.html#well-defined-thread-model).
 */
final class BlockingExecutor {
    // DefaultThreadFactory names them netty-blocking-<pool>-<n>: the first 15 characters, all
    // Linux keeps of a name, are "netty-blocking-", the manifest's blocking_thread_prefix.
    private static final String BLOCKING_THREAD_PREFIX = "netty-blocking";

    private final DefaultEventExecutorGroup group;
    private final ExecutorService virtualThreads;

    private BlockingExecutor(DefaultEventExecutorGroup group, ExecutorService virtualThreads) {
        this.group = group;
        this.virtualThreads = virtualThreads;
    }

    static BlockingExecutor of(ServerConfig config) {
        return config.virtualThreads()
                ? new BlockingExecutor(null, ThreadKind.newVirtualThreadPerTaskExecutor())
                : new BlockingExecutor(newGroup(config.blockingPool()), null);
    }

    /** Netty has no default size for it: the manifest's blocking_pool gives the count. */
    private static DefaultEventExecutorGroup newGroup(int threads) {
        if (threads < 1) {
            throw new ConfigException("packaged manifest /httplab/server.toml: blocking_pool: "
                    + "Netty's DefaultEventExecutorGroup needs a count");
        }
        return new DefaultEventExecutorGroup(threads, new DefaultThreadFactory(BLOCKING_THREAD_PREFIX));
    }

    /**
     * Adds the handlers that block, on the group with a pool (Netty 4.2 deprecates this
     * overload, but keeps it working). A channel keeps one thread of the group for all of them
     * (ChannelOption.SINGLE_EVENTEXECUTOR_PER_GROUP, on by default), so a handler passes
     * another's requests on without a hop. With virtual threads they run on the event loop.
     */
    @SuppressWarnings("deprecation")
    void addHandlers(ChannelPipeline pipeline, DatabaseHandler database, BlockingHandler blocking) {
        pipeline.addLast(group, "database", database);
        pipeline.addLast(group, "blocking", blocking);
    }

    /**
     * The most calls that block at once, for the ready line: the pool's threads; with virtual
     * threads nothing caps them, which a count states as ServerConfig.MAX_WORKERS.
     */
    int poolThreads() {
        return group == null ? ServerConfig.MAX_WORKERS : group.executorCount();
    }

    /**
     * Answers a paused request with what the blocking call returns (null: the connection
     * closes, so it is not left paused), then releases the request.
     */
    void answer(ChannelHandlerContext ctx, HttpRequest request, Supplier<FullHttpResponse> call) {
        if (virtualThreads == null) {
            write(ctx, request, callOrNull(call));
            return;
        }
        EventLoop loop = ctx.channel().eventLoop();
        try {
            virtualThreads.execute(() -> {
                FullHttpResponse response = callOrNull(call);
                loop.execute(() -> write(ctx, request, response));
            });
        } catch (RejectedExecutionException stopping) {
            write(ctx, request, null);
        }
    }

    private static FullHttpResponse callOrNull(Supplier<FullHttpResponse> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static void write(ChannelHandlerContext ctx, HttpRequest request, FullHttpResponse response) {
        try {
            if (response == null) {
                ctx.close();
            } else {
                Replies.answerAfterWait(ctx, request, response);
            }
        } finally {
            ReferenceCountUtil.release(request);
        }
    }

    /** Starts stopping: the group as the event loops; virtual threads take no new calls. */
    Future<?> shutdownGracefully(long quietPeriodMillis, long timeoutMillis) {
        if (group != null) {
            return group.shutdownGracefully(quietPeriodMillis, timeoutMillis, TimeUnit.MILLISECONDS);
        }
        virtualThreads.shutdown();
        return ImmediateEventExecutor.INSTANCE.newSucceededFuture(null);
    }
}
