package httplab.webflux;

import static org.springframework.web.reactive.function.server.RequestPredicates.path;

import httplab.server.DatabaseSettings;
import httplab.server.Hello;
import httplab.server.HttpDate;
import httplab.server.QueryCount;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * GET /db and /queries?n=N as functional routes whose handlers return the query's Mono
 * (WorldQueries), which JsonRoutes writes as JSON. Without a database (no DatabaseClient
 * bean, see DatabaseProperties) both answer 503.
 */
@Configuration(proxyBeanMethods = false)
public class DatabaseRoutes {
    private final WorldQueries world;

    public DatabaseRoutes(ObjectProvider<DatabaseClient> client) {
        DatabaseClient databaseClient = client.getIfAvailable();
        this.world = databaseClient == null ? null : new WorldQueries(databaseClient);
    }

    @Bean
    RouterFunction<ServerResponse> dbRouter() {
        return GetOnlyRoutes.of(path(Hello.DB_PATH), this::db);
    }

    @Bean
    RouterFunction<ServerResponse> queriesRouter() {
        return GetOnlyRoutes.of(path(Hello.QUERIES_PATH), this::queries);
    }

    Mono<ServerResponse> db(ServerRequest request) {
        if (world == null) {
            return notConfigured();
        }
        return world.randomRow().flatMap(JsonRoutes::ok);
    }

    Mono<ServerResponse> queries(ServerRequest request) {
        if (world == null) {
            return notConfigured();
        }
        int count = QueryCount.parse(request.queryParam(QueryCount.PARAMETER).orElse(null));
        return world.randomRows(count).flatMap(JsonRoutes::ok);
    }

    private static Mono<ServerResponse> notConfigured() {
        return ServerResponse.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.CONTENT_TYPE, Hello.CONTENT_TYPE)
                .header(HttpHeaders.SERVER, HelloRoutes.SERVER_HEADER)
                .header(HttpHeaders.DATE, HttpDate.now())
                .bodyValue(DatabaseSettings.NOT_CONFIGURED);
    }
}
