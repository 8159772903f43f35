package httplab.netty;

import httplab.server.Hello;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

/**
 * Answers each request as it is decoded and flushes once per socket read, so a batch of
 * pipelined requests costs one write system call; responses leave in request order.
 */
@ChannelHandler.Sharable
final class HelloHandler extends ChannelInboundHandlerAdapter {
    static final HelloHandler INSTANCE = new HelloHandler();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        try {
            if (message instanceof HttpRequest request) {
                respond(ctx, request);
            }
        } finally {
            ReferenceCountUtil.release(message);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private static void respond(ChannelHandlerContext ctx, HttpRequest request) {
        if (request.decoderResult().isFailure()) {
            ctx.writeAndFlush(HelloResponses.empty(HttpResponseStatus.BAD_REQUEST))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        FullHttpResponse response = responseFor(request);
        if (!HttpUtil.isKeepAlive(request)) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        if (request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        ctx.write(response, ctx.voidPromise());
    }

    private static FullHttpResponse responseFor(HttpRequest request) {
        if (!Hello.isHelloPath(pathOf(request.uri()))) {
            return HelloResponses.empty(HttpResponseStatus.NOT_FOUND);
        }
        HttpMethod method = request.method();
        if (method.equals(HttpMethod.GET) || method.equals(HttpMethod.HEAD)) {
            return HelloResponses.hello();
        }
        FullHttpResponse notAllowed = HelloResponses.empty(HttpResponseStatus.METHOD_NOT_ALLOWED);
        notAllowed.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
        return notAllowed;
    }

    private static String pathOf(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }
}
