package httplab.webflux;

import httplab.server.StartupLine;
import io.netty.util.concurrent.EventExecutor;
import reactor.netty.resources.LoopResources;

/**
 * Proves the event loop count took effect: Netty starts a loop's thread on its first
 * task, so every loop of the server group gets an empty task before the threads are counted.
 */
final class EventLoopProbe {
    private EventLoopProbe() {
    }

    /** Starts every loop of the group the HTTP server runs on, and counts their threads. */
    static int startAllAndCount(LoopResources loops, String prefix) {
        for (EventExecutor loop : loops.onServer(LoopResources.DEFAULT_NATIVE)) {
            loop.submit(() -> { }).syncUninterruptibly();
        }
        return StartupLine.countLiveThreads(prefix + "-");
    }
}
