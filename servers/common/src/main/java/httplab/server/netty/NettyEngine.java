package httplab.server.netty;

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
import java.util.Arrays;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

/**
 * The I/O engine under Netty's event loops (TRANSPORT), as Netty 4.2 pairs them: each engine's
 * IoHandler factory with its server channel, and Netty's reason a native one cannot start here.
 * Shared by the Netty server and WebFlux (Reactor Netty); each runs it on its own Netty, whose
 * 4.2.x all have these signatures (the Netty dependencies in common/pom.xml are optional).
 */
public enum NettyEngine {
    NIO(ServerConfig.NIO, NioServerSocketChannel.class, NioIoHandler::newFactory, () -> null),
    EPOLL(ServerConfig.EPOLL, EpollServerSocketChannel.class, EpollIoHandler::newFactory,
            () -> Epoll.isAvailable() ? null : Epoll.unavailabilityCause()),
    IO_URING(ServerConfig.IO_URING, IoUringServerSocketChannel.class, IoUringIoHandler::newFactory,
            () -> IoUring.isAvailable() ? null : IoUring.unavailabilityCause());

    private final String displayName;
    private final Class<? extends ServerChannel> serverChannelClass;
    private final Supplier<IoHandlerFactory> ioHandlerFactory;
    private final Supplier<Throwable> unavailabilityCause;

    NettyEngine(String displayName, Class<? extends ServerChannel> serverChannelClass,
                Supplier<IoHandlerFactory> ioHandlerFactory, Supplier<Throwable> unavailabilityCause) {
        this.displayName = displayName;
        this.serverChannelClass = serverChannelClass;
        this.ioHandlerFactory = ioHandlerFactory;
        this.unavailabilityCause = unavailabilityCause;
    }

    /**
     * The engine TRANSPORT names, or ConfigException with Netty's reason it cannot start here:
     * never a quiet step down to another.
     */
    public static NettyEngine startable(String name) {
        NettyEngine engine = Arrays.stream(values())
                .filter(one -> one.displayName.equals(name)).findFirst()
                .orElseThrow(() -> new ConfigException("TRANSPORT=" + name + ": not a Netty transport"));
        Throwable cause = engine.unavailabilityCause();
        if (cause != null) {
            throw new ConfigException("TRANSPORT=" + name + ": Netty's " + name
                    + " transport cannot start here: " + ConfigException.reasonOf(cause));
        }
        return engine;
    }

    /** The engine a bound server channel runs on, by its class (the class's name for another). */
    public static String inUse(Channel serverChannel) {
        return Arrays.stream(values())
                .filter(one -> one.serverChannelClass == serverChannel.getClass())
                .map(NettyEngine::displayName).findFirst()
                .orElse(serverChannel.getClass().getSimpleName());
    }

    /** Netty's reason this engine cannot start in this process; null when it can. */
    public Throwable unavailabilityCause() {
        return unavailabilityCause.get();
    }

    /** Event loops on this engine, as Netty 4.2 builds them. */
    public MultiThreadIoEventLoopGroup newGroup(int threads, ThreadFactory threadFactory) {
        return new MultiThreadIoEventLoopGroup(threads, threadFactory, ioHandlerFactory.get());
    }

    public Class<? extends ServerChannel> serverChannelClass() {
        return serverChannelClass;
    }

    public String displayName() {
        return displayName;
    }
}
