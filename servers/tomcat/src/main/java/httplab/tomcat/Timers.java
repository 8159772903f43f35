package httplab.tomcat;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * The one timer thread that completes /delay's DeferredResults. Setting a result is all it
 * does (Tomcat writes the answer on its own threads), so one thread serves every waiting
 * request.
 */
@Configuration(proxyBeanMethods = false)
public class Timers {
    @Bean
    ThreadPoolTaskScheduler delayTimer() {
        ThreadPoolTaskScheduler timer = new ThreadPoolTaskScheduler();
        timer.setPoolSize(1);
        timer.setThreadNamePrefix("httplab-delay-");
        timer.setDaemon(true);
        return timer;
    }
}
