package httplab.helidon;

import httplab.server.StartupLine;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The platform threads that run every virtual thread: the JDK's virtual-thread scheduler, a
 * ForkJoinPool of jdk.virtualThreadScheduler.parallelism carrier threads (default: the
 * available processors; java.lang.Thread's javadoc). Helidon has no worker pool of its own:
 * these carriers are what WORKERS sets.
 */
final class CarrierThreads {
    private static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";
    /** The scheduler is the first ForkJoinPool made here (start runs before any other). */
    static final String NAME_PREFIX = "ForkJoinPool-1-worker-";
    private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private CarrierThreads() {
    }

    /**
     * Sets the scheduler's parallelism before the first virtual thread exists, then keeps
     * that many virtual threads busy at once, which only as many carriers can run, so each
     * carrier starts; returns the carriers counted alive.
     */
    static int start(int count) throws InterruptedException {
        System.setProperty(PARALLELISM, Integer.toString(count));
        AtomicInteger running = new AtomicInteger();
        long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
        Thread[] spinners = new Thread[count];
        for (int index = 0; index < count; index++) {
            spinners[index] = Thread.ofVirtual().start(() -> spinUntilAll(running, count, deadline));
        }
        for (Thread spinner : spinners) {
            spinner.join();
        }
        return StartupLine.countLiveThreads(NAME_PREFIX);
    }

    /** Busy, not parked: a parked virtual thread would free its carrier for the next one. */
    private static void spinUntilAll(AtomicInteger running, int count, long deadline) {
        running.incrementAndGet();
        while (running.get() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }
}
