package httplab.webflux;

import static org.springframework.web.reactive.function.server.RequestPredicates.path;

import httplab.server.Hello;
import httplab.server.HttpDate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * GET /json as a functional route: bodyValue hands the record to WebFlux's Jackson encoder,
 * which serializes it per request
 * (https://docs.spring.io/spring-framework/reference/web/webflux-functional.html).
 */
@Configuration(proxyBeanMethods = false)
public class JsonRoutes {
    @Bean
    RouterFunction<ServerResponse> jsonRouter() {
        return GetOnlyRoutes.of(path(Hello.JSON_PATH), JsonRoutes::json);
    }

    static Mono<ServerResponse> json(ServerRequest request) {
        return ok(Hello.Message.hello());
    }

    /** 200 with the body as JSON, Content-Type exactly application/json; also /db's and /queries'. */
    static Mono<ServerResponse> ok(Object body) {
        return ServerResponse.ok()
                .contentType(MediaType.APPLICATION_JSON)
                .header(HttpHeaders.SERVER, HelloRoutes.SERVER_HEADER)
                .header(HttpHeaders.DATE, HttpDate.now())
                .bodyValue(body);
    }
}
