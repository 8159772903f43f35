package httplab.netty;

import httplab.server.ConfigException;
import httplab.server.ServerConfig;
import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.Arrays;

/**
 * The I/O engine under the event loops (TRANSPORT), as Netty 4.2 pairs them: each engine's
 * IoHandler factory with its server channel. A native engine that cannot start here stops
 * the server (Netty's own reason in the line), never a quiet step down to another.
 */
enum NettyTransport {
    NIO(ServerConfig.NIO, NioServerSocketChannel.class) {
        @Override
        IoHandlerFactory ioHandlerFactory() {
            return NioIoHandler.newFactory();
        }

        @Override
        Throwable unavailabilityCause() {
            return null;
        }
    },
    EPOLL(ServerConfig.EPOLL, EpollServerSocketChannel.class) {
        @Override
        IoHandlerFactory ioHandlerFactory() {
            return EpollIoHandler.newFactory();
        }

        @Override
        Throwable unavailabilityCause() {
            return Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
        }
    },
    IO_URING(ServerConfig.IO_URING, IoUringServerSocketChannel.class) {
        @Override
        IoHandlerFactory ioHandlerFactory() {
            return IoUringIoHandler.newFactory();
        }

        @Override
        Throwable unavailabilityCause() {
            return IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
        }
    };

    private final String displayName;
    private final Class<? extends ServerChannel> serverChannelClass;

    NettyTransport(String displayName, Class<? extends ServerChannel> serverChannelClass) {
        this.displayName = displayName;
        this.serverChannelClass = serverChannelClass;
    }

    /** The engine TRANSPORT names, or ConfigException with Netty's reason it cannot start here. */
    static NettyTransport startable(String name) {
        NettyTransport transport = Arrays.stream(values())
                .filter(one -> one.displayName.equals(name)).findFirst()
                .orElseThrow(() -> new ConfigException("TRANSPORT=" + name + ": not a Netty transport"));
        Throwable cause = transport.unavailabilityCause();
        if (cause != null) {
            throw new ConfigException("TRANSPORT=" + name + ": Netty's " + name
                    + " transport cannot start here: " + ConfigException.reasonOf(cause));
        }
        return transport;
    }

    /** The engine a bound server channel runs on, by its class ("unknown" for another). */
    static String inUse(Channel serverChannel) {
        return Arrays.stream(values())
                .filter(one -> one.serverChannelClass == serverChannel.getClass())
                .map(NettyTransport::displayName).findFirst().orElse("unknown");
    }

    abstract IoHandlerFactory ioHandlerFactory();

    /** Netty's reason this engine cannot start in this process; null when it can. */
    abstract Throwable unavailabilityCause();

    MultiThreadIoEventLoopGroup newGroup(int threads, String threadNamePrefix) {
        return new MultiThreadIoEventLoopGroup(
                threads, new DefaultThreadFactory(threadNamePrefix), ioHandlerFactory());
    }

    Class<? extends ServerChannel> serverChannelClass() {
        return serverChannelClass;
    }

    String displayName() {
        return displayName;
    }
}
