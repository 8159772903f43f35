package httplab.webflux;

import static org.springframework.web.reactive.function.server.RequestPredicates.path;

import httplab.server.Hello;
import httplab.server.HttpDate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * GET and HEAD on / and /plaintext as functional routes (any other method there gets 405);
 * every path no route matches gets WebFlux's 404.
 */
@Configuration(proxyBeanMethods = false)
public class HelloRoutes {
    static final String SERVER_HEADER = "WebFlux";

    @Bean
    RouterFunction<ServerResponse> helloRouter() {
        return GetOnlyRoutes.of(path(Hello.ROOT_PATH).or(path(Hello.PLAINTEXT_PATH)),
                HelloRoutes::hello);
    }

    /** The hello-world answer, also of /delay once it has waited. */
    static Mono<ServerResponse> hello(ServerRequest request) {
        return hello(ServerResponse.ok());
    }

    /** The hello world on the given 200 (/blocking's names the thread that slept). */
    static Mono<ServerResponse> hello(ServerResponse.BodyBuilder ok) {
        // Reactor Netty sends neither Server nor Date; the body bytes are wrapped, not copied.
        return ok
                .header(HttpHeaders.CONTENT_TYPE, Hello.CONTENT_TYPE)
                .header(HttpHeaders.SERVER, SERVER_HEADER)
                .header(HttpHeaders.DATE, HttpDate.now())
                .bodyValue(Hello.BODY_BYTES);
    }
}
