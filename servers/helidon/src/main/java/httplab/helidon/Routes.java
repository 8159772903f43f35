package httplab.helidon;

import httplab.server.Hello;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.http.PathMatchers;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * The routing: each path answers GET and HEAD, and any other method with 405 and its Allow
 * header (Helidon's routing matches in order, and answers a path no route takes with 404).
 * A filter gives every answer the Server header; Helidon adds its own cached Date header.
 * HEAD gets GET's headers and no body, as Helidon's own static content handler does.
 */
final class Routes {
    private static final Header SERVER = HeaderValues.createCached(HeaderNames.SERVER, HelidonServer.FRAMEWORK);
    private static final Header ALLOW = HeaderValues.createCached(HeaderNames.ALLOW, "GET, HEAD");
    private static final Header TEXT_TYPE = HeaderValues.createCached(HeaderNames.CONTENT_TYPE,
            Hello.CONTENT_TYPE);

    private Routes() {
    }

    /** worlds is null without a database: /db and /queries then answer 503. */
    static void add(HttpRouting.Builder routing, Worlds worlds) {
        routing.addFilter((chain, req, res) -> {
            res.header(SERVER);
            chain.proceed();
        });
        Handler hello = Routes::hello;
        getOrHead(routing, Hello.ROOT_PATH, hello);
        getOrHead(routing, Hello.PLAINTEXT_PATH, hello);
        getOrHead(routing, Hello.JSON_PATH, new JsonHandler());
        getOrHead(routing, Hello.DELAY_PATH, WaitHandler.delay());
        getOrHead(routing, Hello.BLOCKING_PATH, WaitHandler.blocking());
        getOrHead(routing, Hello.DB_PATH, new DatabaseHandler(worlds, false));
        getOrHead(routing, Hello.QUERIES_PATH, new DatabaseHandler(worlds, true));
    }

    private static void getOrHead(HttpRouting.Builder routing, String path, Handler handler) {
        routing.route(Method.predicate(Method.GET, Method.HEAD), PathMatchers.exact(path), handler)
                .any(path, (req, res) -> res.header(ALLOW).status(Status.METHOD_NOT_ALLOWED_405).send());
    }

    /** The hello world of / and /plaintext, and of /delay and /blocking after their wait. */
    static void hello(ServerRequest req, ServerResponse res) {
        sendText(req, res, Hello.BODY_BYTES);
    }

    /** A text/plain body; for HEAD, its headers and no body. */
    static void sendText(ServerRequest req, ServerResponse res, byte[] body) {
        res.header(TEXT_TYPE);
        if (isHead(req)) {
            res.header(HeaderNames.CONTENT_LENGTH, Integer.toString(body.length)).send();
        } else {
            res.send(body);
        }
    }

    static boolean isHead(ServerRequest req) {
        return Method.HEAD.equals(req.prologue().method());
    }
}
