package httplab.webflux;

import httplab.server.StartupLine;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import reactor.netty.resources.LoopResources;

/**
 * Proves the event loop count took effect: Netty starts a loop's thread on its first
 * task, so every loop of the server group gets an empty task before the threads are counted.
 */
final class EventLoopProbe {
    private final EventLoopGroup serverLoops;

    private EventLoopProbe(EventLoopGroup serverLoops) {
        this.serverLoops = serverLoops;
    }

    /** The group the HTTP server runs on (native preferred, as Reactor Netty's server does). */
    static EventLoopProbe startAll(LoopResources loops) {
        EventLoopGroup group = loops.onServer(true);
        for (EventExecutor loop : group) {
            loop.submit(() -> { }).syncUninterruptibly();
        }
        return new EventLoopProbe(group);
    }

    int liveThreads(String prefix) {
        return StartupLine.countLiveThreads(prefix + "-");
    }

    /** The transport in use, from the event loop implementation (EpollEventLoop, NioEventLoop...). */
    String transport() {
        String loop = serverLoops.next().getClass().getSimpleName().toLowerCase();
        if (loop.startsWith("epoll")) {
            return "epoll";
        }
        if (loop.startsWith("iouring")) {
            return "io_uring";
        }
        if (loop.startsWith("kqueue")) {
            return "kqueue";
        }
        return loop.startsWith("nio") ? "nio" : loop;
    }
}
