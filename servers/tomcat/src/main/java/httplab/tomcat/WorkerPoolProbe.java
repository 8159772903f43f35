package httplab.tomcat;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Proves the worker pool's size took effect: Tomcat starts its worker threads on demand
 * (server.tomcat.threads.min-spare at first), so the probe gives the pool `workers` tasks
 * that each hold their thread until all of them run, counts the distinct threads holding
 * one, then lets them go. A smaller pool never runs them all; the count then says how many
 * it ran at once. With EXECUTOR=virtual there is no pool: Tomcat's executor starts a virtual
 * thread per task, so the count is `workers` again, and says only that no smaller pool
 * queues the requests (server.tomcat.threads.max then sizes nothing).
 */
final class WorkerPoolProbe {
    private static final long START_TIMEOUT_SECONDS = 5;

    private WorkerPoolProbe() {
    }

    static int threadsAtOnce(Executor pool, int workers) throws InterruptedException {
        Set<Thread> holders = ConcurrentHashMap.newKeySet();
        CountDownLatch allRunning = new CountDownLatch(workers);
        CountDownLatch release = new CountDownLatch(1);
        for (int task = 0; task < workers; task++) {
            pool.execute(() -> hold(holders, allRunning, release));
        }
        try {
            allRunning.await(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return holders.size();
        } finally {
            release.countDown();
        }
    }

    private static void hold(Set<Thread> holders, CountDownLatch allRunning, CountDownLatch release) {
        holders.add(Thread.currentThread());
        allRunning.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
