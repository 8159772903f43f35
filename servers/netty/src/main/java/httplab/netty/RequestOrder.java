package httplab.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * Keeps one connection's answers in request order while one of its requests waits (/delay,
 * /blocking), as HTTP/1.1 pipelining requires. Pausing turns auto-read off, so no more bytes
 * are read (https://netty.io/4.2/api/io/netty/channel/ChannelConfig.html#setAutoRead(boolean));
 * but HttpServerCodec still hands on every request it has already decoded from the last read,
 * so those are held here and answered, in order, once the waiting answer is written.
 * (Netty's FlowControlHandler would hold them too, but it sits in front of every request, the
 * plaintext ones included.) Event loop only.
 */
final class RequestOrder {
    private static final AttributeKey<RequestOrder> KEY =
            AttributeKey.valueOf(RequestOrder.class, "requestOrder");

    private final ChannelHandlerContext helloContext;
    private final ArrayDeque<HttpRequest> held = new ArrayDeque<>();
    private boolean waiting;

    private RequestOrder(ChannelHandlerContext helloContext) {
        this.helloContext = helloContext;
    }

    /** True while a request of this channel waits: requests after it must be held. */
    static boolean isPaused(Channel channel) {
        return !channel.config().isAutoRead();
    }

    /** A request starts waiting: stop reading, and send what is already answered. */
    static void pause(ChannelHandlerContext helloContext) {
        Channel channel = helloContext.channel();
        RequestOrder order = channel.attr(KEY).get();
        if (order == null) {
            order = new RequestOrder(helloContext);
            channel.attr(KEY).set(order);
        }
        order.waiting = true;
        channel.config().setAutoRead(false);
        helloContext.flush();
    }

    static void hold(Channel channel, HttpRequest request) {
        channel.attr(KEY).get().held.add(ReferenceCountUtil.retain(request));
    }

    /** The waiting answer is written: answer the held requests until one waits again, else read on. */
    static void resume(Channel channel) {
        RequestOrder order = channel.attr(KEY).get();
        order.waiting = false;
        while (!order.waiting && !order.held.isEmpty()) {
            HttpRequest next = order.held.poll();
            try {
                HelloHandler.respond(order.helloContext, next);
            } finally {
                ReferenceCountUtil.release(next);
            }
        }
        order.helloContext.flush();
        if (!order.waiting) {
            channel.config().setAutoRead(true);
        }
    }

    /** The connection closed: nothing held will be answered. */
    static void releaseHeld(Channel channel) {
        RequestOrder order = channel.attr(KEY).get();
        while (order != null && !order.held.isEmpty()) {
            ReferenceCountUtil.release(order.held.poll());
        }
    }
}
