package httplab.tomcat;

import httplab.server.Hello;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * GET / and /plaintext, and GET /json, whose record Spring MVC's Jackson message converter
 * serializes per request
 * (https://docs.spring.io/spring-framework/reference/web/webmvc/mvc-controller/ann-methods/responsebody.html);
 * produces pins its Content-Type to exactly application/json. @GetMapping answers HEAD
 * too, any other method gets Spring's 405 with Allow, and any other path Spring's 404.
 */
@RestController
public class HelloEndpoints {
    @GetMapping({Hello.ROOT_PATH, Hello.PLAINTEXT_PATH})
    public ResponseEntity<byte[]> hello() {
        return Answers.hello();
    }

    @GetMapping(path = Hello.JSON_PATH, produces = MediaType.APPLICATION_JSON_VALUE)
    public Hello.Message json() {
        return Hello.Message.hello();
    }
}
