package httplab.vertx;

import httplab.server.DatabaseSettings;
import httplab.server.World;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/**
 * The world table through Vert.x's reactive PostgreSQL client: one pooled client for all
 * verticles, built as the client's manual shows (https://vertx.io/docs/vertx-pg-client/java/).
 * Nothing blocks: each statement's result comes back on the calling verticle's event loop. The
 * pool opens connections when the first statements need them, so the server starts without
 * waiting for the database; built with using(vertx), it closes with Vert.x.
 */
final class WorldQueries {
    private final Pool pool;
    private final int maxSize;

    private WorldQueries(Pool pool, int maxSize) {
        this.pool = pool;
        this.maxSize = maxSize;
    }

    /** A pool of settings.poolSize() connections, or null without a database (no settings). */
    static WorldQueries open(Vertx vertx, DatabaseSettings settings) {
        if (settings == null) {
            return null;
        }
        PgConnectOptions connect = new PgConnectOptions()
                .setHost(settings.host())
                .setPort(settings.port())
                .setDatabase(settings.name())
                .setUser(settings.user())
                .setPassword(settings.password());
        PoolOptions options = new PoolOptions().setMaxSize(settings.poolSize());
        Pool pool = PgBuilder.pool().with(options).connectingTo(connect).using(vertx).build();
        return new WorldQueries(pool, options.getMaxSize());
    }

    /** The pool's size as its PoolOptions hold it: the ready line's db_pool. */
    int maxSize() {
        return maxSize;
    }

    /** One random row as {"id":N,"randomNumber":M}. */
    Future<JsonObject> one() {
        return pool.preparedQuery(World.SELECT_NUMBERED).execute(Tuple.of(World.randomId()))
                .map(WorldQueries::onlyRow);
    }

    /** count random rows, count separate statements run together, in an array. */
    Future<JsonArray> many(int count) {
        List<Future<JsonObject>> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            rows.add(one());
        }
        return Future.all(rows).map(all -> new JsonArray(all.list()));
    }

    private static JsonObject onlyRow(RowSet<Row> rows) {
        if (rows.size() != 1) {
            throw new IllegalStateException("no row in world for the id asked");
        }
        Row row = rows.iterator().next();
        return new JsonObject().put("id", row.getInteger(0)).put("randomNumber", row.getInteger(1));
    }
}
