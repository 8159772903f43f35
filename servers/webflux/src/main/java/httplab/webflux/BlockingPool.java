package httplab.webflux;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.Scannable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The scheduler /blocking sleeps on: a bounded elastic scheduler built exactly as
 * Schedulers.boundedElastic() is (its default size, queue cap, 60 s TTL, daemon threads)
 * but under its own name, through Schedulers.newBoundedElastic
 * (https://projectreactor.io/docs/core/release/reference/coreFeatures/schedulers.html).
 * Why not the shared one: every bounded elastic scheduler has an evictor thread named
 * "boundedElastic-evictor-N", which Linux (15-character thread names) cannot tell from the
 * shared scheduler's "boundedElastic-N" workers, so counting them would count it too.
 */
@Configuration(proxyBeanMethods = false)
public class BlockingPool {
    /** The scheduler's threads are "blocking-N"; their evictor stays "boundedElastic-evictor-N". */
    static final String NAME = "blocking";
    /** What Schedulers.boundedElastic() uses (BoundedElasticScheduler.DEFAULT_TTL_SECONDS). */
    private static final int TTL_SECONDS = 60;

    @Bean(destroyMethod = "dispose")
    Scheduler blockingScheduler() {
        return Schedulers.newBoundedElastic(Schedulers.DEFAULT_BOUNDED_ELASTIC_SIZE,
                Schedulers.DEFAULT_BOUNDED_ELASTIC_QUEUESIZE, NAME, TTL_SECONDS, true);
    }

    /** The most threads the scheduler may start, as it reports it (its capacity). */
    static int maxThreads(Scheduler scheduler) {
        Integer capacity = Scannable.from(scheduler).scan(Scannable.Attr.CAPACITY);
        return capacity == null ? 0 : capacity;
    }
}
