package httplab.netty;

import httplab.server.Hello;
import httplab.server.HttpDate;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import java.nio.charset.StandardCharsets;

/** The responses, with their constant bytes and header values prepared once. */
final class HelloResponses {
    static final AsciiString SERVER_NAME = AsciiString.cached("Netty");
    private static final AsciiString CONTENT_TYPE = AsciiString.cached(Hello.CONTENT_TYPE);
    private static final AsciiString HELLO_LENGTH =
            AsciiString.cached(String.valueOf(Hello.BODY_BYTES.length));
    private static final AsciiString ZERO_LENGTH = AsciiString.cached("0");
    private static final ByteBuf HELLO_BODY = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer(Hello.BODY_BYTES.length).writeBytes(Hello.BODY_BYTES)).asReadOnly();

    private HelloResponses() {
    }

    static FullHttpResponse hello() {
        FullHttpResponse response = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.OK, HELLO_BODY.duplicate(), false);
        HttpHeaders headers = response.headers();
        headers.set(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE);
        headers.set(HttpHeaderNames.CONTENT_LENGTH, HELLO_LENGTH);
        addCommonHeaders(headers);
        return response;
    }

    /** A short text/plain answer, such as /db's 503 without a database. */
    static FullHttpResponse text(HttpResponseStatus status, String text) {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body), false);
        HttpHeaders headers = response.headers();
        headers.set(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE);
        headers.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        addCommonHeaders(headers);
        return response;
    }

    static FullHttpResponse empty(HttpResponseStatus status) {
        FullHttpResponse response = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER, false);
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, ZERO_LENGTH);
        addCommonHeaders(response.headers());
        return response;
    }

    static void addCommonHeaders(HttpHeaders headers) {
        headers.set(HttpHeaderNames.SERVER, SERVER_NAME);
        headers.set(HttpHeaderNames.DATE, HttpDate.now());
    }
}
