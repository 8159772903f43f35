package httplab.vertx;

import httplab.server.Hello;
import httplab.server.WaitMillis;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * One instance per event loop; Vert.x spreads the shared listening port across them. Vert.x's
 * HTTP/1 server hands a connection's pipelined requests over one at a time, each once the one
 * before it has been answered, so a waiting request keeps the answers in order.
 */
final class HelloVerticle extends VerticleBase {
    private final String host;
    private final int port;
    private final HttpServerOptions options;
    private final WorldQueries worlds;
    private final BlockingWait blockingWait;

    /**
     * options: PROTOCOL's (Protocols); worlds: the shared database client, or null without a
     * database; blockingWait: EXECUTOR's.
     */
    HelloVerticle(String host, int port, HttpServerOptions options, WorldQueries worlds,
                  BlockingWait blockingWait) {
        this.host = host;
        this.port = port;
        this.options = options;
        this.worlds = worlds;
        this.blockingWait = blockingWait;
    }

    @Override
    public Future<?> start() {
        return vertx.createHttpServer(options).requestHandler(this::handle).listen(port, host);
    }

    private void handle(HttpServerRequest request) {
        String path = request.path();
        HttpServerResponse response = request.response();
        if (!isKnownPath(path)) {
            HelloResponses.empty(response, 404);
        } else if (request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD) {
            HelloResponses.notAllowed(response);
        } else if (Hello.isHelloPath(path)) {
            HelloResponses.hello(request);
        } else if (Hello.JSON_PATH.equals(path)) {
            HelloResponses.json(request);
        } else if (Hello.DB_PATH.equals(path) || Hello.QUERIES_PATH.equals(path)) {
            Queries.answer(worlds, request, Hello.QUERIES_PATH.equals(path));
        } else {
            startWait(request, path);
        }
    }

    private static boolean isKnownPath(String path) {
        return Hello.isHelloPath(path) || Hello.JSON_PATH.equals(path)
                || Hello.DELAY_PATH.equals(path) || Hello.BLOCKING_PATH.equals(path)
                || Hello.DB_PATH.equals(path) || Hello.QUERIES_PATH.equals(path);
    }

    /** /delay and /blocking: 400 at once for a bad ms, else the answer after the wait. */
    private void startWait(HttpServerRequest request, String path) {
        int millis = WaitMillis.parse(WaitMillis.fromQuery(request.query()));
        if (millis == WaitMillis.INVALID) {
            HelloResponses.empty(request.response(), 400);
        } else if (Hello.DELAY_PATH.equals(path)) {
            Waits.delay(vertx, request, millis);
        } else {
            Waits.blocking(blockingWait, request, millis);
        }
    }
}
