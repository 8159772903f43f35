package httplab.vertx;

import httplab.server.Hello;
import httplab.server.HttpDate;
import httplab.server.ThreadKind;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.JsonObject;

/** The answers, with their constant bytes and header values prepared once. */
final class HelloResponses {
    private static final CharSequence SERVER_NAME = HttpHeaders.createOptimized("Vert.x");
    private static final CharSequence CONTENT_TYPE = HttpHeaders.createOptimized(Hello.CONTENT_TYPE);
    private static final CharSequence JSON_CONTENT_TYPE =
            HttpHeaders.createOptimized(Hello.JSON_CONTENT_TYPE);
    private static final CharSequence HELLO_LENGTH =
            HttpHeaders.createOptimized(String.valueOf(Hello.BODY_BYTES.length));
    private static final CharSequence ZERO_LENGTH = HttpHeaders.createOptimized("0");
    private static final CharSequence THREAD_KIND = HttpHeaders.createOptimized(ThreadKind.HEADER);
    private static final CharSequence ALLOWED_METHODS = HttpHeaders.createOptimized("GET, HEAD");
    // Each write takes a slice of it, so every event loop can share it.
    private static final Buffer HELLO_BODY = Buffer.buffer(Hello.BODY_BYTES);

    private HelloResponses() {
    }

    static void hello(HttpServerRequest request) {
        commonHeaders(request.response())
                .add(HttpHeaders.CONTENT_TYPE, CONTENT_TYPE)
                .add(HttpHeaders.CONTENT_LENGTH, HELLO_LENGTH);
        end(request, HELLO_BODY);
    }

    /** /blocking's answer: the hello world, and the kind of thread that slept. */
    static void hello(HttpServerRequest request, String threadKind) {
        request.response().headers().add(THREAD_KIND, threadKind);
        hello(request);
    }

    /**
     * A new Hello.Message on every request, encoded by Vert.x core's own JsonObject, which
     * needs no Jackson databind (https://vertx.io/docs/vertx-core/java/#_json).
     */
    static void json(HttpServerRequest request) {
        Hello.Message message = Hello.Message.hello();
        json(request, new JsonObject().put("message", message.message()).toBuffer());
    }

    /** 200 with an encoded JSON body: /json's, and the rows of /db and /queries. */
    static void json(HttpServerRequest request, Buffer body) {
        commonHeaders(request.response())
                .add(HttpHeaders.CONTENT_TYPE, JSON_CONTENT_TYPE)
                .add(HttpHeaders.CONTENT_LENGTH, String.valueOf(body.length()));
        end(request, body);
    }

    /** A short text/plain answer, such as /db's 503 without a database. */
    static void text(HttpServerRequest request, int status, String text) {
        Buffer body = Buffer.buffer(text);
        commonHeaders(request.response())
                .add(HttpHeaders.CONTENT_TYPE, CONTENT_TYPE)
                .add(HttpHeaders.CONTENT_LENGTH, String.valueOf(body.length()));
        request.response().setStatusCode(status);
        end(request, body);
    }

    static void notAllowed(HttpServerResponse response) {
        response.headers().add(HttpHeaders.ALLOW, ALLOWED_METHODS);
        empty(response, 405);
    }

    static void empty(HttpServerResponse response, int status) {
        commonHeaders(response).add(HttpHeaders.CONTENT_LENGTH, ZERO_LENGTH);
        response.setStatusCode(status).end();
    }

    /**
     * Ends the answer with its body. Vert.x's HTTP/1.x server leaves a HEAD answer's body out
     * itself; its HTTP/2 server sends what it is given, so under HTTP/2 a HEAD ends without it.
     */
    private static void end(HttpServerRequest request, Buffer body) {
        boolean bodyless = request.method() == HttpMethod.HEAD
                && request.version() == HttpVersion.HTTP_2;
        if (bodyless) {
            request.response().end();
        } else {
            request.response().end(body);
        }
    }

    private static MultiMap commonHeaders(HttpServerResponse response) {
        return response.headers().add(HttpHeaders.SERVER, SERVER_NAME).add(HttpHeaders.DATE, HttpDate.now());
    }
}
