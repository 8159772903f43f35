package httplab.helidon;

import httplab.server.Hello;
import io.helidon.common.GenericType;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.http.WritableHeaders;
import io.helidon.http.media.MediaContext;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.ByteArrayOutputStream;

/**
 * GET /json: ServerResponse.send(Object) serializes a new Hello.Message per request through
 * Helidon's JSON media support, Jackson's (helidon-http-media-jackson, found on the class
 * path), which also sets the Content-Type
 * (https://helidon.io/docs/v4/se/webserver/webserver#_jackson_support).
 */
final class JsonHandler implements Handler {
    /** The media support the server's own default finds: Jackson's for these types. */
    private static final MediaContext MEDIA = MediaContext.create();

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        send(req, res, Hello.Message.hello());
    }

    /** The value as JSON; for HEAD, the headers of that answer and no body. */
    static void send(ServerRequest req, ServerResponse res, Object value) {
        if (Routes.isHead(req)) {
            sendHead(res, value);
        } else {
            res.send(value);
        }
    }

    /** Serialized as GET's answer would be, to give HEAD its Content-Type and -Length. */
    private static void sendHead(ServerResponse res, Object value) {
        GenericType<Object> type = GenericType.create(value);
        ServerRequestHeaders none = ServerRequestHeaders.create();
        WritableHeaders<?> headers = WritableHeaders.create();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        MEDIA.writer(type, none, headers).write(type, value, body, none, headers);
        headers.forEach(res::header);
        res.header(HeaderNames.CONTENT_LENGTH, Integer.toString(body.size())).send();
    }
}
