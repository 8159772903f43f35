package httplab.netty;

import httplab.server.Hello;
import httplab.server.QueryCount;
import httplab.server.WaitMillis;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;

/**
 * Answers each request as it is decoded, on the event loop, and flushes once per socket read,
 * so a batch of pipelined requests costs one write system call; responses leave in request
 * order. /delay, /blocking, /db and /queries pause the connection until their answer is
 * written (RequestOrder); /blocking goes on to BlockingHandler, /db and /queries to
 * DatabaseHandler, whose calls block where BlockingExecutor puts them.
 */
@ChannelHandler.Sharable
final class HelloHandler extends ChannelInboundHandlerAdapter {
    static final HelloHandler INSTANCE = new HelloHandler();

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        try {
            if (message instanceof HttpRequest request) {
                if (RequestOrder.isPaused(ctx.channel())) {
                    RequestOrder.hold(ctx.channel(), request);
                } else {
                    respond(ctx, request);
                }
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
    public void channelInactive(ChannelHandlerContext ctx) {
        RequestOrder.releaseHeld(ctx.channel());
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    /** Answers one request now, or starts its wait; RequestOrder replays held requests here. */
    static void respond(ChannelHandlerContext ctx, HttpRequest request) {
        if (request.decoderResult().isFailure()) {
            ctx.writeAndFlush(HelloResponses.empty(HttpResponseStatus.BAD_REQUEST))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        String path = pathOf(request.uri());
        boolean readOnly = isGetOrHead(request.method());
        if (Hello.isHelloPath(path)) {
            Replies.answer(ctx, request, readOnly ? HelloResponses.hello() : notAllowed());
        } else if (Hello.JSON_PATH.equals(path)) {
            Replies.answer(ctx, request, readOnly ? JsonResponses.hello() : notAllowed());
        } else if (!isWaitingPath(path)) {
            Replies.answer(ctx, request, HelloResponses.empty(HttpResponseStatus.NOT_FOUND));
        } else if (!readOnly) {
            Replies.answer(ctx, request, notAllowed());
        } else if (Hello.DB_PATH.equals(path) || Hello.QUERIES_PATH.equals(path)) {
            startQuery(ctx, request, path);
        } else {
            startWait(ctx, request, path);
        }
    }

    /** The paths whose answer comes later, from a timer, the blocking group or the database. */
    private static boolean isWaitingPath(String path) {
        return Hello.DELAY_PATH.equals(path) || Hello.BLOCKING_PATH.equals(path)
                || Hello.DB_PATH.equals(path) || Hello.QUERIES_PATH.equals(path);
    }

    /** /db and /queries: the connection pauses while DatabaseHandler runs the statements. */
    private static void startQuery(ChannelHandlerContext ctx, HttpRequest request, String path) {
        boolean list = Hello.QUERIES_PATH.equals(path);
        int count = list ? QueryCount.fromQuery(queryOf(request.uri())) : 1;
        RequestOrder.pause(ctx);
        ctx.fireChannelRead(new DatabaseHandler.Query(ReferenceCountUtil.retain(request), count, list));
    }

    /** /delay and /blocking: 400 at once for a bad ms; otherwise the connection pauses. */
    private static void startWait(ChannelHandlerContext ctx, HttpRequest request, String path) {
        int millis = waitMillis(request);
        if (millis == WaitMillis.INVALID) {
            Replies.answer(ctx, request, HelloResponses.empty(HttpResponseStatus.BAD_REQUEST));
            return;
        }
        RequestOrder.pause(ctx);
        HttpRequest waiting = ReferenceCountUtil.retain(request);
        if (Hello.DELAY_PATH.equals(path)) {
            // A timer on the channel's own event loop, which serves other channels meanwhile
            // (EventExecutorGroup.schedule: https://netty.io/4.2/api/io/netty/util/concurrent/EventExecutorGroup.html).
            ctx.executor().schedule(() -> answerDelayed(ctx, waiting), millis, TimeUnit.MILLISECONDS);
        } else {
            ctx.fireChannelRead(waiting);
        }
    }

    private static void answerDelayed(ChannelHandlerContext ctx, HttpRequest request) {
        try {
            Replies.answerAfterWait(ctx, request, HelloResponses.hello());
        } finally {
            ReferenceCountUtil.release(request);
        }
    }

    /** The ms parameter of a /delay or /blocking request, or WaitMillis.INVALID. */
    static int waitMillis(HttpRequest request) {
        return WaitMillis.parse(WaitMillis.fromQuery(queryOf(request.uri())));
    }

    /** The raw query string after '?', or null. */
    private static String queryOf(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? null : uri.substring(query + 1);
    }

    private static boolean isGetOrHead(HttpMethod method) {
        return method.equals(HttpMethod.GET) || method.equals(HttpMethod.HEAD);
    }

    private static FullHttpResponse notAllowed() {
        FullHttpResponse notAllowed = HelloResponses.empty(HttpResponseStatus.METHOD_NOT_ALLOWED);
        notAllowed.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
        return notAllowed;
    }

    private static String pathOf(String uri) {
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }
}
