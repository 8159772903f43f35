package httplab.netty;

import httplab.server.ThreadKind;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.AsciiString;

/**
 * /blocking: holds a thread for the wait, where the BlockingExecutor puts it: a thread of the
 * DefaultEventExecutorGroup (pool) or a virtual thread of its own (virtual), never an event
 * loop. The answer names the kind of thread that slept (ThreadKind.HEADER). HelloHandler
 * passes on only valid GET and HEAD /blocking requests, and has paused the channel
 * (RequestOrder).
 */
@ChannelHandler.Sharable
final class BlockingHandler extends ChannelInboundHandlerAdapter {
    private static final AsciiString THREAD_HEADER = AsciiString.cached(ThreadKind.HEADER);
    private final BlockingExecutor executor;

    BlockingHandler(BlockingExecutor executor) {
        this.executor = executor;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        HttpRequest request = (HttpRequest) message;
        int millis = HelloHandler.waitMillis(request);
        executor.answer(ctx, request, () -> sleepThenHello(millis));
    }

    /** The hello world after the wait; null when interrupted (no answer: the connection closes). */
    private static FullHttpResponse sleepThenHello(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        FullHttpResponse hello = HelloResponses.hello();
        hello.headers().set(THREAD_HEADER, ThreadKind.current());
        return hello;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
