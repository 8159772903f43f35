package httplab.webflux;

import httplab.server.StartupLine;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.util.concurrent.EventExecutor;
import reactor.netty.resources.LoopResources;

/**
 * Proves the event loop count took effect: Netty starts a loop's thread on its first
 * task, so every loop of the server group gets an empty task before the threads are counted.
 */
final class EventLoopProbe {
    private final Class<?> serverChannel;

    private EventLoopProbe(Class<?> serverChannel) {
        this.serverChannel = serverChannel;
    }

    /** The group the HTTP server runs on (native preferred, as Reactor Netty's server does). */
    static EventLoopProbe startAll(LoopResources loops) {
        EventLoopGroup group = loops.onServer(true);
        for (EventExecutor loop : group) {
            loop.submit(() -> { }).syncUninterruptibly();
        }
        return new EventLoopProbe(loops.onChannelClass(ServerSocketChannel.class, group));
    }

    int liveThreads(String prefix) {
        return StartupLine.countLiveThreads(prefix + "-");
    }

    /**
     * The transport in use, from the server channel class Reactor Netty picks for the loops
     * (EpollServerSocketChannel, NioServerSocketChannel...): since Netty 4.2 every loop is a
     * SingleThreadIoEventLoop, whatever its transport.
     */
    String transport() {
        String channel = serverChannel.getSimpleName().toLowerCase();
        if (channel.startsWith("epoll")) {
            return "epoll";
        }
        if (channel.startsWith("iouring")) {
            return "io_uring";
        }
        if (channel.startsWith("kqueue")) {
            return "kqueue";
        }
        return channel.startsWith("nio") ? "nio" : channel;
    }
}
