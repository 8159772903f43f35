package httplab.vertx;

import httplab.server.Hello;
import httplab.server.HttpDate;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/** One instance per event loop; Vert.x spreads the shared listening port across them. */
final class HelloVerticle extends VerticleBase {
    private static final CharSequence SERVER_NAME = HttpHeaders.createOptimized("Vert.x");
    private static final CharSequence CONTENT_TYPE = HttpHeaders.createOptimized(Hello.CONTENT_TYPE);
    private static final CharSequence HELLO_LENGTH =
            HttpHeaders.createOptimized(String.valueOf(Hello.BODY_BYTES.length));
    private static final CharSequence ZERO_LENGTH = HttpHeaders.createOptimized("0");
    private static final CharSequence ALLOWED_METHODS = HttpHeaders.createOptimized("GET, HEAD");
    // Each write takes a slice of it, so every event loop can share it.
    private static final Buffer HELLO_BODY = Buffer.buffer(Hello.BODY_BYTES);

    private final String host;
    private final int port;

    HelloVerticle(String host, int port) {
        this.host = host;
        this.port = port;
    }

    @Override
    public Future<?> start() {
        HttpServerOptions options = new HttpServerOptions().setTcpNoDelay(true);
        return vertx.createHttpServer(options).requestHandler(HelloVerticle::handle).listen(port, host);
    }

    private static void handle(HttpServerRequest request) {
        HttpServerResponse response = request.response();
        MultiMap headers = response.headers();
        headers.add(HttpHeaders.SERVER, SERVER_NAME).add(HttpHeaders.DATE, HttpDate.now());
        if (!Hello.isHelloPath(request.path())) {
            respondEmpty(response, 404);
        } else if (request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD) {
            headers.add(HttpHeaders.CONTENT_TYPE, CONTENT_TYPE).add(HttpHeaders.CONTENT_LENGTH, HELLO_LENGTH);
            response.end(HELLO_BODY);
        } else {
            headers.add(HttpHeaders.ALLOW, ALLOWED_METHODS);
            respondEmpty(response, 405);
        }
    }

    private static void respondEmpty(HttpServerResponse response, int status) {
        response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_LENGTH, ZERO_LENGTH).end();
    }
}
