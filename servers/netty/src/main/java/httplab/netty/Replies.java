package httplab.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

/** Writes an answer as its request's connection asks: kept alive (HTTP/1.0 too) or closed. */
final class Replies {
    private Replies() {
    }

    /** An answer within the current read; HelloHandler flushes once the read is done. */
    static void answer(ChannelHandlerContext ctx, HttpRequest request, FullHttpResponse response) {
        if (keepAlive(request, response)) {
            ctx.write(response, ctx.voidPromise());
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /**
     * A waiting request's answer, from any thread: flushed at once; once written, the
     * connection answers the requests held behind it and reads again (RequestOrder), or closes.
     */
    static void answerAfterWait(ChannelHandlerContext ctx, HttpRequest request, FullHttpResponse response) {
        boolean keepAlive = keepAlive(request, response);
        Channel channel = ctx.channel();
        // The channel's own promise notifies on its event loop, where RequestOrder must run.
        ctx.writeAndFlush(response, channel.newPromise()).addListener((ChannelFutureListener) written -> {
            if (keepAlive && written.isSuccess()) {
                RequestOrder.resume(channel);
            } else {
                channel.close();
            }
        });
    }

    /** Sets the Connection header the request calls for; false when the connection must close. */
    private static boolean keepAlive(HttpRequest request, FullHttpResponse response) {
        if (!HttpUtil.isKeepAlive(request)) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            return false;
        }
        if (request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        return true;
    }
}
