package httplab.webflux;

import static org.springframework.web.reactive.function.server.RequestPredicates.methods;

import httplab.server.HttpDate;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * GET and HEAD on some paths to one handler, 405 for any other method there: functional
 * routes, unlike annotated ones, answer neither HEAD nor 405 by themselves. WebFlux sends a
 * HEAD answer's headers (Content-Length too) without its body.
 */
final class GetOnlyRoutes {
    private GetOnlyRoutes() {
    }

    static RouterFunction<ServerResponse> of(RequestPredicate paths,
                                             HandlerFunction<ServerResponse> handler) {
        return RouterFunctions.route()
                .route(paths.and(methods(HttpMethod.GET, HttpMethod.HEAD)), handler)
                .route(paths, GetOnlyRoutes::methodNotAllowed)
                .build();
    }

    static Mono<ServerResponse> methodNotAllowed(ServerRequest request) {
        return ServerResponse.status(HttpStatus.METHOD_NOT_ALLOWED)
                .allow(HttpMethod.GET, HttpMethod.HEAD)
                .header(HttpHeaders.SERVER, HelloRoutes.SERVER_HEADER)
                .header(HttpHeaders.DATE, HttpDate.now())
                .build();
    }
}
