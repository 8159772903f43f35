package httplab.armeria;

import com.linecorp.armeria.server.Server;
import httplab.server.ServerConfig;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;

/** The blocking task executor /blocking runs on, and its size as the executor reports it. */
final class BlockingPool {
    private BlockingPool() {
    }

    /**
     * The most threads the server's blocking task executor may have: a
     * ScheduledThreadPoolExecutor never grows past its core size (Armeria sets it to
     * numThreads and lets idle threads time out); nothing caps the VirtualThreadExecutor of
     * EXECUTOR=virtual, which a count states as ServerConfig.MAX_WORKERS; 0 for another kind.
     */
    static int maxThreads(Server server) {
        ScheduledExecutorService executor = server.config().blockingTaskExecutor().unwrap();
        if (executor instanceof VirtualThreadExecutor) {
            return ServerConfig.MAX_WORKERS;
        }
        return executor instanceof ThreadPoolExecutor pool ? pool.getCorePoolSize() : 0;
    }
}
