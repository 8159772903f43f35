package httplab.vertx;

import httplab.server.DatabaseSettings;
import httplab.server.QueryCount;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** /db (one row, an object) and /queries?n=N (N rows, an array), answered when the rows come. */
final class Queries {
    private static final int UNAVAILABLE = 503;
    private static final int INTERNAL_ERROR = 500;

    private Queries() {
    }

    /** worlds is null without a database: then 503. */
    static void answer(WorldQueries worlds, HttpServerRequest request, boolean list) {
        HttpServerResponse response = request.response();
        if (worlds == null) {
            HelloResponses.text(request, UNAVAILABLE, DatabaseSettings.NOT_CONFIGURED);
            return;
        }
        Future<Buffer> body = list
                ? worlds.many(QueryCount.fromQuery(request.query())).map(JsonArray::toBuffer)
                : worlds.one().map(JsonObject::toBuffer);
        body.onComplete(done -> {
            if (response.closed()) {
                return; // the client went while the statements ran
            }
            if (done.succeeded()) {
                HelloResponses.json(request, done.result());
            } else {
                System.err.println("httplab Vert.x: " + request.path() + " failed: " + done.cause());
                HelloResponses.empty(response, INTERNAL_ERROR);
            }
        });
    }
}
