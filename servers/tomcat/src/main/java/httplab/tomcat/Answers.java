package httplab.tomcat;

import httplab.server.DatabaseSettings;
import httplab.server.Hello;
import httplab.server.ThreadKind;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

/**
 * The endpoints' answers: the hello world (of /, /plaintext, /delay and /blocking, whose
 * answer also names the kind of thread that slept, header ThreadKind.HEADER), the empty
 * 400 of a bad ?ms=, /db's and /queries' JSON and their 503 without a database. Tomcat adds
 * the Server header (server.server-header) and its Date header.
 */
final class Answers {
    private static final MediaType TEXT = MediaType.parseMediaType(Hello.CONTENT_TYPE);
    private static final HttpHeaders HELLO_HEADERS = helloHeaders(null);
    private static final HttpHeaders SLEPT_ON_PLATFORM = helloHeaders(ThreadKind.PLATFORM);
    private static final HttpHeaders SLEPT_ON_VIRTUAL = helloHeaders(ThreadKind.VIRTUAL);

    private Answers() {
    }

    static ResponseEntity<byte[]> hello() {
        return new ResponseEntity<>(Hello.BODY_BYTES, HELLO_HEADERS, HttpStatus.OK);
    }

    /** The empty 400 of a bad ?ms=, sent at once. */
    static ResponseEntity<byte[]> badRequest() {
        return ResponseEntity.badRequest().build();
    }

    /** The hello world of /blocking, naming the kind of thread (ThreadKind) that slept. */
    static ResponseEntity<byte[]> slept(String threadKind) {
        HttpHeaders headers = ThreadKind.VIRTUAL.equals(threadKind) ? SLEPT_ON_VIRTUAL : SLEPT_ON_PLATFORM;
        return new ResponseEntity<>(Hello.BODY_BYTES, headers, HttpStatus.OK);
    }

    /** 200 with the body as JSON (Jackson writes it), Content-Type exactly application/json. */
    static ResponseEntity<Object> json(Object body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

    static ResponseEntity<String> noDatabase() {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).contentType(TEXT)
                .body(DatabaseSettings.NOT_CONFIGURED);
    }

    /** The hello world's headers, with ThreadKind.HEADER when threadKind is not null. */
    private static HttpHeaders helloHeaders(String threadKind) {
        HttpHeaders headers = new HttpHeaders();
        // Tomcat writes it as "text/plain;charset=UTF-8": the same media type.
        headers.setContentType(TEXT);
        headers.setContentLength(Hello.BODY_BYTES.length);
        if (threadKind != null) {
            headers.set(ThreadKind.HEADER, threadKind);
        }
        return HttpHeaders.readOnlyHttpHeaders(headers);
    }
}
