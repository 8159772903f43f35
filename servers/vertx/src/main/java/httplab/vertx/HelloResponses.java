package httplab.vertx;

import httplab.server.Hello;
import httplab.server.HttpDate;
import httplab.server.ThreadKind;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
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

    static void hello(HttpServerResponse response) {
        commonHeaders(response)
                .add(HttpHeaders.CONTENT_TYPE, CONTENT_TYPE)
                .add(HttpHeaders.CONTENT_LENGTH, HELLO_LENGTH);
        response.end(HELLO_BODY);
    }

    /** /blocking's answer: the hello world, and the kind of thread that slept. */
    static void hello(HttpServerResponse response, String threadKind) {
        response.headers().add(THREAD_KIND, threadKind);
        hello(response);
    }

    /**
     * A new Hello.Message on every request, encoded by Vert.x core's own JsonObject, which
     * needs no Jackson databind (https://vertx.io/docs/vertx-core/java/#_json).
     */
    static void json(HttpServerResponse response) {
        Hello.Message message = Hello.Message.hello();
        json(response, new JsonObject().put("message", message.message()).toBuffer());
    }

    /** 200 with an encoded JSON body: /json's, and the rows of /db and /queries. */
    static void json(HttpServerResponse response, Buffer body) {
        commonHeaders(response)
                .add(HttpHeaders.CONTENT_TYPE, JSON_CONTENT_TYPE)
                .add(HttpHeaders.CONTENT_LENGTH, String.valueOf(body.length()));
        response.end(body);
    }

    /** A short text/plain answer, such as /db's 503 without a database. */
    static void text(HttpServerResponse response, int status, String text) {
        Buffer body = Buffer.buffer(text);
        commonHeaders(response)
                .add(HttpHeaders.CONTENT_TYPE, CONTENT_TYPE)
                .add(HttpHeaders.CONTENT_LENGTH, String.valueOf(body.length()));
        response.setStatusCode(status).end(body);
    }

    static void notAllowed(HttpServerResponse response) {
        response.headers().add(HttpHeaders.ALLOW, ALLOWED_METHODS);
        empty(response, 405);
    }

    static void empty(HttpServerResponse response, int status) {
        commonHeaders(response).add(HttpHeaders.CONTENT_LENGTH, ZERO_LENGTH);
        response.setStatusCode(status).end();
    }

    private static MultiMap commonHeaders(HttpServerResponse response) {
        return response.headers().add(HttpHeaders.SERVER, SERVER_NAME).add(HttpHeaders.DATE, HttpDate.now());
    }
}
