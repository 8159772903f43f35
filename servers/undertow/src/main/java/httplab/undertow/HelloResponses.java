package httplab.undertow;

import httplab.server.Hello;
import httplab.server.ThreadKind;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * The hello-world answer of /, /plaintext, /delay and /blocking (whose answer also names the
 * kind of thread that slept, header ThreadKind.HEADER), and the empty 400 of a bad ?ms=.
 * Undertow adds the Server header (server.server-header) and its own cached Date header.
 */
final class HelloResponses {
    private static final HttpHeaders HEADERS = helloHeaders(null);
    private static final HttpHeaders SLEPT_ON_PLATFORM = helloHeaders(ThreadKind.PLATFORM);
    private static final HttpHeaders SLEPT_ON_VIRTUAL = helloHeaders(ThreadKind.VIRTUAL);

    private HelloResponses() {
    }

    static ResponseEntity<byte[]> hello() {
        return new ResponseEntity<>(Hello.BODY_BYTES, HEADERS, HttpStatus.OK);
    }

    /** The hello world of /blocking, naming the kind of thread (ThreadKind) that slept. */
    static ResponseEntity<byte[]> slept(String threadKind) {
        HttpHeaders headers = ThreadKind.VIRTUAL.equals(threadKind) ? SLEPT_ON_VIRTUAL : SLEPT_ON_PLATFORM;
        return new ResponseEntity<>(Hello.BODY_BYTES, headers, HttpStatus.OK);
    }

    /** Empty body: Undertow sends Content-Length: 0 for it, as for its 404s. */
    static ResponseEntity<byte[]> badRequest() {
        return ResponseEntity.badRequest().build();
    }

    /** The hello world's headers, with ThreadKind.HEADER when threadKind is not null. */
    private static HttpHeaders helloHeaders(String threadKind) {
        HttpHeaders headers = new HttpHeaders();
        // The servlet container renders it as "text/plain;charset=UTF-8" (same media type).
        headers.setContentType(MediaType.parseMediaType(Hello.CONTENT_TYPE));
        headers.setContentLength(Hello.BODY_BYTES.length);
        if (threadKind != null) {
            headers.set(ThreadKind.HEADER, threadKind);
        }
        return HttpHeaders.readOnlyHttpHeaders(headers);
    }
}
