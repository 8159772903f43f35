package httplab.netty;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.ReferenceCountUtil;

/**
 * /blocking: holds a thread for the wait. NettyServer adds this handler to the pipeline with a
 * DefaultEventExecutorGroup, so its methods run on that group's threads, never on an event
 * loop, as the ChannelPipeline javadoc's "Building a pipeline" shows for time-consuming work
 * (https://netty.io/4.1/api/io/netty/channel/ChannelPipeline.html). HelloHandler passes on
 * only valid GET and HEAD /blocking requests, and has paused the channel (RequestOrder).
 */
@ChannelHandler.Sharable
final class BlockingHandler extends ChannelInboundHandlerAdapter {
    static final BlockingHandler INSTANCE = new BlockingHandler();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        HttpRequest request = (HttpRequest) message;
        try {
            Thread.sleep(HelloHandler.waitMillis(request));
            Replies.answerAfterWait(ctx, request, HelloResponses.hello());
        } catch (InterruptedException e) {
            // No answer then: the connection closes, so it is not left paused.
            Thread.currentThread().interrupt();
            ctx.close();
        } finally {
            ReferenceCountUtil.release(request);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
