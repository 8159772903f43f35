package httplab.netty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import httplab.server.Hello;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import java.io.UncheckedIOException;

/**
 * The JSON responses, serialized by Jackson on every request: /json's new Hello.Message, and
 * the rows of /db and /queries (records, which Jackson writes by their components). Netty has
 * no JSON support of its own; one ObjectMapper is shared by all threads, as its javadoc
 * advises (thread-safe once configured; https://javadoc.io/doc/com.fasterxml.jackson.core/
 * jackson-databind/latest/com/fasterxml/jackson/databind/ObjectMapper.html).
 */
final class JsonResponses {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final AsciiString CONTENT_TYPE = AsciiString.cached(Hello.JSON_CONTENT_TYPE);

    private JsonResponses() {
    }

    static FullHttpResponse hello() {
        return of(Hello.Message.hello());
    }

    /** 200 with the value as its JSON body. */
    static FullHttpResponse of(Object value) {
        byte[] body = serialize(value);
        FullHttpResponse response = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.wrappedBuffer(body), false);
        HttpHeaders headers = response.headers();
        headers.set(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE);
        headers.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        HelloResponses.addCommonHeaders(headers);
        return response;
    }

    private static byte[] serialize(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
