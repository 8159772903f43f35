package httplab.webflux;

import static org.springframework.web.reactive.function.server.RequestPredicates.path;

import httplab.server.Hello;
import httplab.server.HttpDate;
import httplab.server.ThreadKind;
import httplab.server.WaitMillis;
import java.time.Duration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * GET /delay?ms=N and /blocking?ms=N: the hello world after N ms. /delay waits on a Reactor
 * timer (Mono.delay), holding no thread; /blocking sleeps in a callable subscribed on the
 * bounded elastic scheduler (BlockingPool), Reactor's answer to "How Do I Wrap a Synchronous,
 * Blocking Call?" (https://projectreactor.io/docs/core/release/reference/faq.html), and its
 * answer names the kind of thread that slept (ThreadKind).
 */
@Configuration(proxyBeanMethods = false)
public class WaitRoutes {
    private final Scheduler blocking;

    public WaitRoutes(Scheduler blockingScheduler) {
        this.blocking = blockingScheduler;
    }

    @Bean
    RouterFunction<ServerResponse> delayRouter() {
        return GetOnlyRoutes.of(path(Hello.DELAY_PATH), WaitRoutes::delay);
    }

    @Bean
    RouterFunction<ServerResponse> blockingRouter() {
        return GetOnlyRoutes.of(path(Hello.BLOCKING_PATH), this::blocking);
    }

    static Mono<ServerResponse> delay(ServerRequest request) {
        int millis = millis(request);
        if (millis == WaitMillis.INVALID) {
            return badRequest();
        }
        return Mono.delay(Duration.ofMillis(millis)).flatMap(tick -> HelloRoutes.hello(request));
    }

    Mono<ServerResponse> blocking(ServerRequest request) {
        int millis = millis(request);
        if (millis == WaitMillis.INVALID) {
            return badRequest();
        }
        return Mono.fromCallable(() -> sleep(millis))
                .subscribeOn(blocking)
                .flatMap(threadKind -> HelloRoutes.hello(
                        ServerResponse.ok().header(ThreadKind.HEADER, threadKind)));
    }

    private static int millis(ServerRequest request) {
        return WaitMillis.parse(request.queryParam(WaitMillis.PARAMETER).orElse(null));
    }

    /** Sleeps, then names the kind of thread that slept. */
    private static String sleep(int millis) throws InterruptedException {
        Thread.sleep(millis);
        return ThreadKind.current();
    }

    static Mono<ServerResponse> badRequest() {
        return ServerResponse.badRequest()
                .header(HttpHeaders.SERVER, HelloRoutes.SERVER_HEADER)
                .header(HttpHeaders.DATE, HttpDate.now())
                .build();
    }
}
