package httplab.tomcat;

import httplab.server.DatabaseSettings;
import httplab.server.Hello;
import httplab.server.WaitMillis;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * The endpoints' answers: the hello world (of /, /plaintext, /delay and /blocking), the
 * empty 400 of a bad ?ms=, /db's and /queries' JSON and their 503 without a database. Tomcat adds the Server header (server.server-header) and its Date header.
 */
final class Answers {
    private static final MediaType TEXT = MediaType.parseMediaType(Hello.CONTENT_TYPE);
    private static final HttpHeaders HELLO_HEADERS = helloHeaders();

    private Answers() {
    }

    static ResponseEntity<byte[]> hello() {
        return new ResponseEntity<>(Hello.BODY_BYTES, HELLO_HEADERS, HttpStatus.OK);
    }

    /** After a wait of `millis` (WaitMillis.parse's value): the hello world, or 400 at once. */
    static ResponseEntity<byte[]> waited(int millis) {
        return millis == WaitMillis.INVALID ? ResponseEntity.badRequest().build() : hello();
    }

    /** 200 with the body as JSON (Jackson writes it), Content-Type exactly application/json. */
    static ResponseEntity<Object> json(Object body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

    static ResponseEntity<String> noDatabase() {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).contentType(TEXT)
                .body(DatabaseSettings.NOT_CONFIGURED);
    }

    private static HttpHeaders helloHeaders() {
        HttpHeaders headers = new HttpHeaders();
        // Tomcat writes it as "text/plain;charset=UTF-8": the same media type.
        headers.setContentType(TEXT);
        headers.setContentLength(Hello.BODY_BYTES.length);
        return HttpHeaders.readOnlyHttpHeaders(headers);
    }
}
