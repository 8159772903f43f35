package httplab.netty;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;

/**
 * An HTTP/2 stream's answer to HEAD leaves without its body, its headers (Content-Length
 * included) as for GET: what HttpServerCodec does for HTTP/1.1, which
 * Http2StreamFrameToHttpObjectCodec does not, as it encodes whatever content it is given.
 * One per stream channel, which carries one request.
 */
final class HeadResponses extends ChannelDuplexHandler {
    private boolean head;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (message instanceof HttpRequest request) {
            head = HttpMethod.HEAD.equals(request.method());
        }
        ctx.fireChannelRead(message);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
        if (head && message instanceof FullHttpResponse response && response.content().isReadable()) {
            FullHttpResponse headersOnly = response.replace(Unpooled.EMPTY_BUFFER);
            response.release();
            ctx.write(headersOnly, promise);
        } else {
            ctx.write(message, promise);
        }
    }
}
