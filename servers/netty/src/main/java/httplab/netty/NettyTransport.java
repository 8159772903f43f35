package httplab.netty;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/** Native epoll where the platform has it, NIO otherwise. */
enum NettyTransport {
    EPOLL("epoll", EpollServerSocketChannel.class) {
        @Override
        IoHandlerFactory ioHandlerFactory() {
            return EpollIoHandler.newFactory();
        }
    },
    NIO("nio", NioServerSocketChannel.class) {
        @Override
        IoHandlerFactory ioHandlerFactory() {
            return NioIoHandler.newFactory();
        }
    };

    private final String displayName;
    private final Class<? extends ServerChannel> serverChannelClass;

    NettyTransport(String displayName, Class<? extends ServerChannel> serverChannelClass) {
        this.displayName = displayName;
        this.serverChannelClass = serverChannelClass;
    }

    static NettyTransport best() {
        return Epoll.isAvailable() ? EPOLL : NIO;
    }

    abstract IoHandlerFactory ioHandlerFactory();

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
