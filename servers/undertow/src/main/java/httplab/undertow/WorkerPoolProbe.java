package httplab.undertow;

import httplab.server.StartupLine;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.xnio.XnioWorker;

/**
 * Proves the worker pool size took effect: XNIO starts worker threads lazily, so it
 * occupies every worker at once, counts the live worker threads, then releases them.
 */
final class WorkerPoolProbe {
    private static final long START_TIMEOUT_SECONDS = 5;

    private WorkerPoolProbe() {
    }

    /** Returns how many worker threads are alive once `workers` tasks could run together. */
    static int startAllAndCount(XnioWorker worker, int workers) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(workers);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < workers; i++) {
            worker.execute(() -> holdUntilReleased(running, release));
        }
        try {
            // A smaller pool never gets all tasks running; the timeout then reports what it has.
            running.await(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return StartupLine.countLiveThreads(worker.getName() + " task-");
        } finally {
            release.countDown();
        }
    }

    private static void holdUntilReleased(CountDownLatch running, CountDownLatch release) {
        running.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
