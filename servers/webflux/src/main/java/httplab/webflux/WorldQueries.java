package httplab.webflux;

import httplab.server.World;
import io.r2dbc.spi.Readable;
import java.util.List;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Random rows of the world table through Spring's DatabaseClient: sql, bind, map, one
 * (https://docs.spring.io/spring-framework/reference/data-access/r2dbc.html). No thread waits
 * for a row: each statement borrows a pooled connection and completes when its row arrives.
 */
final class WorldQueries {
    private final DatabaseClient client;

    WorldQueries(DatabaseClient client) {
        this.client = client;
    }

    Mono<World> randomRow() {
        return client.sql(World.SELECT_NUMBERED)
                .bind(0, World.randomId())
                .map(WorldQueries::world)
                .one();
    }

    /** count statements, each for its own random id, run concurrently over the pool. */
    Mono<List<World>> randomRows(int count) {
        return Flux.range(0, count).flatMap(i -> randomRow()).collectList();
    }

    private static World world(Readable row) {
        return new World(row.get(0, Integer.class), row.get(1, Integer.class));
    }
}
