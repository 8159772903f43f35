package httplab.webflux;

import httplab.server.ConfigException;
import httplab.server.ServerConfig;
import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import java.util.Map;

/**
 * TRANSPORT for Reactor Netty: the Netty IoHandler the server's loops run (EngineLoops), and
 * the engine the bound server channel runs on, which Reactor Netty picks to match the loops.
 * Reactor Netty steps down quietly (to epoll, then NIO) when a native engine cannot start, so
 * the server refuses an engine Netty says cannot start, and one it does not run on once bound.
 */
final class Engines {
    private static final Map<Class<? extends Channel>, String> SERVER_CHANNELS = Map.of(
            NioServerSocketChannel.class, ServerConfig.NIO,
            EpollServerSocketChannel.class, ServerConfig.EPOLL,
            IoUringServerSocketChannel.class, ServerConfig.IO_URING);

    private Engines() {
    }

    /** Netty's reason the engine cannot start in this process; null when it can (NIO always). */
    static Throwable unavailabilityCause(String transport) {
        return switch (transport) {
            case ServerConfig.EPOLL -> Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
            case ServerConfig.IO_URING ->
                    IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
            default -> null;
        };
    }

    /** Stops the server, before Spring starts, when the engine asked cannot start here. */
    static void requireStartable(String transport) {
        Throwable cause = unavailabilityCause(transport);
        if (cause != null) {
            throw new ConfigException("TRANSPORT=" + transport + ": Netty's " + transport
                    + " transport cannot start here: " + ConfigException.reasonOf(cause));
        }
    }

    static IoHandlerFactory ioHandlerFactory(String transport) {
        return switch (transport) {
            case ServerConfig.EPOLL -> EpollIoHandler.newFactory();
            case ServerConfig.IO_URING -> IoUringIoHandler.newFactory();
            default -> NioIoHandler.newFactory();
        };
    }

    /** The engine the bound server channel runs on, which must be the one asked. */
    static String requireInUse(Channel serverChannel, String asked) {
        String running = SERVER_CHANNELS.getOrDefault(serverChannel.getClass(),
                serverChannel.getClass().getSimpleName());
        if (!running.equals(asked)) {
            Throwable cause = unavailabilityCause(asked);
            throw new ConfigException("TRANSPORT=" + asked + ": Reactor Netty's server runs on "
                    + running + " instead: " + ConfigException.reasonOf(cause));
        }
        return running;
    }
}
