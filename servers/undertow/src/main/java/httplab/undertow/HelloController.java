package httplab.undertow;

import httplab.server.Hello;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * GET / and /plaintext. Every other path falls through to Spring's 404; @GetMapping
 * answers HEAD too, and any other method with Spring's 405 (Allow: GET).
 */
@RestController
public class HelloController {
    @GetMapping({Hello.ROOT_PATH, Hello.PLAINTEXT_PATH})
    public ResponseEntity<byte[]> hello() {
        return HelloResponses.hello();
    }
}
