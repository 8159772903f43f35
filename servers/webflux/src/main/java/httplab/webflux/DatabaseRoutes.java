package httplab.webflux;

import static org.springframework.web.reactive.function.server.RequestPredicates.path;

import httplab.server.DatabaseSettings;
import httplab.server.Hello;
import httplab.server.HttpDate;
import httplab.server.QueryCount;
import httplab.server.netty.NettyEngine;
import io.r2dbc.spi.Option;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.r2dbc.autoconfigure.ConnectionFactoryOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.netty.resources.LoopResources;

/**
 * GET /db and /queries?n=N as functional routes whose handlers return the query's Mono
 * (WorldQueries), which JsonRoutes writes as JSON. Without a database (no DatabaseClient
 * bean, see DatabaseProperties) both answer 503.
 */
@Configuration(proxyBeanMethods = false)
public class DatabaseRoutes {
    /** r2dbc-postgresql's option for the LoopResources its connections run on. */
    private static final Option<LoopResources> LOOP_RESOURCES = Option.valueOf("loopResources");
    private static final String LOOP_PREFIX = "reactor-tcp";
    private final WorldQueries world;

    public DatabaseRoutes(ObjectProvider<DatabaseClient> client) {
        DatabaseClient databaseClient = client.getIfAvailable();
        this.world = databaseClient == null ? null : new WorldQueries(databaseClient);
    }

    /**
     * The driver's connections on loops of the engine TRANSPORT names, as many as Reactor
     * Netty's shared reactor-tcp loops, which it would use otherwise and which take io_uring
     * whenever it can start, whatever TRANSPORT says. Static: the connection factory it shapes
     * comes before this configuration, whose routes take the DatabaseClient.
     */
    @Bean
    static ConnectionFactoryOptionsBuilderCustomizer databaseLoops(NettyEngine engine) {
        return options -> options.option(LOOP_RESOURCES, new EngineLoops(engine,
                LOOP_PREFIX, LoopResources.DEFAULT_IO_WORKER_COUNT));
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
