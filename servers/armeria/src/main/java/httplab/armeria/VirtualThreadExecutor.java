package httplab.armeria;

import httplab.server.ThreadKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * EXECUTOR=virtual: the blocking task executor given to ServerBuilder.blockingTaskExecutor,
 * which takes any ScheduledExecutorService
 * (https://javadoc.io/doc/com.linecorp.armeria/armeria-javadoc/latest/com/linecorp/armeria/server/ServerBuilder.html).
 * Armeria 1.40 has no virtual-thread executor of its own (line/armeria#4911 is open), so each
 * task runs on a new virtual thread of Executors.newVirtualThreadPerTaskExecutor. The JDK has
 * no scheduled executor of virtual threads: a scheduled task runs on one platform timer
 * thread, started by the first; Armeria schedules none on this executor for the lab's services.
 */
final class VirtualThreadExecutor extends AbstractExecutorService implements ScheduledExecutorService {
    private final ExecutorService tasks = ThreadKind.newVirtualThreadPerTaskExecutor();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            runnable -> {
                Thread thread = new Thread(runnable, "armeria-virtual-timer");
                thread.setDaemon(true);
                return thread;
            });

    @Override
    public void execute(Runnable command) {
        tasks.execute(command);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return timer.schedule(command, delay, unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return timer.schedule(callable, delay, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period,
                                                  TimeUnit unit) {
        return timer.scheduleAtFixedRate(command, initialDelay, period, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay,
                                                     TimeUnit unit) {
        return timer.scheduleWithFixedDelay(command, initialDelay, delay, unit);
    }

    @Override
    public void shutdown() {
        timer.shutdown();
        tasks.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
        List<Runnable> notRun = new ArrayList<>(timer.shutdownNow());
        notRun.addAll(tasks.shutdownNow());
        return notRun;
    }

    @Override
    public boolean isShutdown() {
        return tasks.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return timer.isTerminated() && tasks.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        return timer.awaitTermination(timeout, unit)
                && tasks.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
    }
}
