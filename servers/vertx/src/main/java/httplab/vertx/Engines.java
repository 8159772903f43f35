package httplab.vertx;

import httplab.server.ConfigException;
import httplab.server.ServerConfig;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandler;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.uring.IoUringIoHandler;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.transport.Transport;
import java.util.Map;

/**
 * TRANSPORT for Vert.x: the Transport given to its VertxBuilder, and the engine it runs on,
 * read back from its event loops' Netty IoHandler. Vert.x runs on NIO when the transport it
 * is given cannot start (its docs: "preferring native transport will not prevent the
 * application to execute"), so a server whose loops run on another engine than the one asked
 * stops, with Vert.x's unavailableNativeTransportCause().
 */
final class Engines {
    private static final Map<String, Transport> TRANSPORTS = Map.of(
            ServerConfig.NIO, Transport.NIO,
            ServerConfig.EPOLL, Transport.EPOLL,
            ServerConfig.IO_URING, Transport.IO_URING);
    private static final Map<String, Class<? extends IoHandler>> IO_HANDLERS = Map.of(
            ServerConfig.NIO, NioIoHandler.class,
            ServerConfig.EPOLL, EpollIoHandler.class,
            ServerConfig.IO_URING, IoUringIoHandler.class);

    private Engines() {
    }

    /** The Vert.x transport that TRANSPORT names. */
    static Transport asked(String transport) {
        return TRANSPORTS.get(transport);
    }

    /**
     * The engine Vert.x's event loops run on, which must be the one asked; otherwise
     * ConfigException naming both and Vert.x's reason.
     */
    static String inUse(Vertx vertx, String asked) {
        String running = engineOf(((VertxInternal) vertx).nettyEventLoopGroup());
        if (!running.equals(asked)) {
            throw new ConfigException("TRANSPORT=" + asked + ": Vert.x's " + asked
                    + " transport cannot start here (Vert.x runs on " + running + " instead): "
                    + ConfigException.reasonOf(vertx.unavailableNativeTransportCause()));
        }
        return running;
    }

    /** nio, epoll or io_uring: the IoHandler the group's loops run; "unknown" for another. */
    static String engineOf(EventLoopGroup group) {
        return IO_HANDLERS.entrySet().stream()
                .filter(engine -> ((IoEventLoopGroup) group).isIoType(engine.getValue()))
                .map(Map.Entry::getKey).findFirst().orElse("unknown");
    }
}
