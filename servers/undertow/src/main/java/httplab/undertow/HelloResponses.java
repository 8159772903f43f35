package httplab.undertow;

import httplab.server.Hello;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * The hello-world answer of /, /plaintext, /delay and /blocking, and the empty 400 of a bad
 * ?ms=. Undertow adds the Server header (server.server-header) and its own cached Date header.
 */
final class HelloResponses {
    private static final HttpHeaders HEADERS = helloHeaders();

    private HelloResponses() {
    }

    static ResponseEntity<byte[]> hello() {
        return new ResponseEntity<>(Hello.BODY_BYTES, HEADERS, HttpStatus.OK);
    }

    /** Empty body: Undertow sends Content-Length: 0 for it, as for its 404s. */
    static ResponseEntity<byte[]> badRequest() {
        return ResponseEntity.badRequest().build();
    }

    private static HttpHeaders helloHeaders() {
        HttpHeaders headers = new HttpHeaders();
        // The servlet container renders it as "text/plain;charset=UTF-8" (same media type).
        headers.setContentType(MediaType.parseMediaType(Hello.CONTENT_TYPE));
        headers.setContentLength(Hello.BODY_BYTES.length);
        return HttpHeaders.readOnlyHttpHeaders(headers);
    }
}
