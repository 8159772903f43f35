package httplab.undertow;

import httplab.server.Hello;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * GET / and /plaintext. Undertow adds the Server header (server.server-header) and its
 * own cached Date header; every other path falls through to Spring's 404.
 */
@RestController
public class HelloController {
    private static final HttpHeaders HEADERS = helloHeaders();

    @GetMapping({Hello.ROOT_PATH, Hello.PLAINTEXT_PATH})
    public ResponseEntity<byte[]> hello() {
        return new ResponseEntity<>(Hello.BODY_BYTES, HEADERS, 200);
    }

    private static HttpHeaders helloHeaders() {
        HttpHeaders headers = new HttpHeaders();
        // The servlet container renders it as "text/plain;charset=UTF-8" (same media type).
        headers.setContentType(MediaType.parseMediaType(Hello.CONTENT_TYPE));
        headers.setContentLength(Hello.BODY_BYTES.length);
        return HttpHeaders.readOnlyHttpHeaders(headers);
    }
}
