package httplab.undertow;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * The one timer thread that completes /delay's DeferredResults: it only sets results, so a
 * single thread serves any number of waiting requests.
 */
@Configuration(proxyBeanMethods = false)
public class DelayScheduling {
    static final String THREAD_PREFIX = "httplab-delay-";

    @Bean
    ThreadPoolTaskScheduler delayScheduler() {
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.setPoolSize(1);
        scheduler.setThreadNamePrefix(THREAD_PREFIX);
        scheduler.setDaemon(true);
        return scheduler;
    }
}
