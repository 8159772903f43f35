package httplab.undertow;

import httplab.server.Hello;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * GET /json: the record is serialized per request by Spring MVC's Jackson message converter
 * (https://docs.spring.io/spring-framework/reference/web/webmvc/mvc-controller/ann-methods/responsebody.html).
 * produces pins the Content-Type to exactly application/json.
 */
@RestController
public class JsonController {
    @GetMapping(path = Hello.JSON_PATH, produces = MediaType.APPLICATION_JSON_VALUE)
    public Hello.Message json() {
        return Hello.Message.hello();
    }
}
