package httplab.webflux;

import httplab.server.ServerConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.Scannable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The scheduler /blocking sleeps on, Reactor's bounded elastic one
 * (https://projectreactor.io/docs/core/release/reference/coreFeatures/schedulers.html).
 * EXECUTOR=pool: a scheduler built exactly as Schedulers.boundedElastic() is (its default
 * size, queue cap, 60 s TTL, daemon threads) but under its own name, through
 * Schedulers.newBoundedElastic. Why not the shared one: every bounded elastic scheduler has an
 * evictor thread named "boundedElastic-evictor-N", which Linux (15-character thread names)
 * cannot tell from the shared scheduler's "boundedElastic-N" workers, so counting them would
 * count it too.
 * EXECUTOR=virtual: the shared Schedulers.boundedElastic() itself, which Reactor's switch
 * (ON_VIRTUAL_THREADS) turns into its thread-per-task kind: a new virtual thread for each
 * task, no pool, no evictor; the named factories stay on platform threads. Both kinds keep
 * the same cap, DEFAULT_BOUNDED_ELASTIC_SIZE tasks at once, and queue the rest.
 */
@Configuration(proxyBeanMethods = false)
public class BlockingPool {
    /** The scheduler's threads are "blocking-N"; their evictor stays "boundedElastic-evictor-N". */
    static final String NAME = "blocking";
    /** What Schedulers.boundedElastic() uses (BoundedElasticScheduler.DEFAULT_TTL_SECONDS). */
    private static final int TTL_SECONDS = 60;
    /** Reactor's switch (3.6+, on Java 21+) for Schedulers.boundedElastic() on virtual threads. */
    static final String ON_VIRTUAL_THREADS = "reactor.schedulers.defaultBoundedElasticOnVirtualThreads";

    /**
     * Throws Reactor's switch, before Spring starts: Reactor reads it once, as its
     * Schedulers class loads, and a switch thrown later would be ignored without a word.
     */
    static void useVirtualThreads() {
        System.setProperty(ON_VIRTUAL_THREADS, Boolean.TRUE.toString());
        if (!Schedulers.DEFAULT_BOUNDED_ELASTIC_ON_VIRTUAL_THREADS) {
            throw new IllegalStateException(ON_VIRTUAL_THREADS + " was set after Reactor read it");
        }
    }

    /** The shared scheduler's dispose does nothing, so one destroy method serves both. */
    @Bean(destroyMethod = "dispose")
    Scheduler blockingScheduler(ServerConfig config) {
        if (config.virtualThreads()) {
            return Schedulers.boundedElastic();
        }
        return Schedulers.newBoundedElastic(Schedulers.DEFAULT_BOUNDED_ELASTIC_SIZE,
                Schedulers.DEFAULT_BOUNDED_ELASTIC_QUEUESIZE, NAME, TTL_SECONDS, true);
    }

    /** The most tasks the scheduler runs at once, as it reports it (its capacity). */
    static int maxThreads(Scheduler scheduler) {
        Integer capacity = Scannable.from(scheduler).scan(Scannable.Attr.CAPACITY);
        return capacity == null ? 0 : capacity;
    }
}
