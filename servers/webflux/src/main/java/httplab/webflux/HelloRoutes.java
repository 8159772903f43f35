package httplab.webflux;

import static org.springframework.web.reactive.function.server.RequestPredicates.methods;
import static org.springframework.web.reactive.function.server.RequestPredicates.path;

import httplab.server.Hello;
import httplab.server.HttpDate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * GET and HEAD on / and /plaintext as functional routes; any other method there gets 405
 * (functional routes, unlike annotated ones, answer neither HEAD nor 405 by themselves),
 * and every other path gets WebFlux's 404.
 */
@Configuration(proxyBeanMethods = false)
public class HelloRoutes {
    static final String SERVER_HEADER = "WebFlux";
    private static final RequestPredicate HELLO_PATHS =
            path(Hello.ROOT_PATH).or(path(Hello.PLAINTEXT_PATH));

    @Bean
    RouterFunction<ServerResponse> helloRouter() {
        return RouterFunctions.route()
                // WebFlux sends a HEAD answer's headers (Content-Length too) without its body.
                .route(HELLO_PATHS.and(methods(HttpMethod.GET, HttpMethod.HEAD)), HelloRoutes::hello)
                .route(HELLO_PATHS, HelloRoutes::methodNotAllowed)
                .build();
    }

    static Mono<ServerResponse> hello(ServerRequest request) {
        // Reactor Netty sends neither Server nor Date; the body bytes are wrapped, not copied.
        return ServerResponse.ok()
                .header(HttpHeaders.CONTENT_TYPE, Hello.CONTENT_TYPE)
                .header(HttpHeaders.SERVER, SERVER_HEADER)
                .header(HttpHeaders.DATE, HttpDate.now())
                .bodyValue(Hello.BODY_BYTES);
    }

    static Mono<ServerResponse> methodNotAllowed(ServerRequest request) {
        return ServerResponse.status(HttpStatus.METHOD_NOT_ALLOWED)
                .allow(HttpMethod.GET, HttpMethod.HEAD)
                .header(HttpHeaders.SERVER, SERVER_HEADER)
                .header(HttpHeaders.DATE, HttpDate.now())
                .build();
    }
}
