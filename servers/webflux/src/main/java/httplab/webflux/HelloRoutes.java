package httplab.webflux;

import httplab.server.Hello;
import httplab.server.HttpDate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/** GET / and /plaintext as a functional route; every other path gets WebFlux's 404. */
@Configuration(proxyBeanMethods = false)
public class HelloRoutes {
    static final String SERVER_HEADER = "WebFlux";

    @Bean
    RouterFunction<ServerResponse> helloRouter() {
        return RouterFunctions.route()
                .GET(Hello.ROOT_PATH, HelloRoutes::hello)
                .GET(Hello.PLAINTEXT_PATH, HelloRoutes::hello)
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
}
