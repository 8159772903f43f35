package httplab.undertow;

import httplab.server.Hello;
import httplab.server.WaitMillis;
import java.time.Duration;
import java.time.Instant;
import org.springframework.http.ResponseEntity;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * GET /delay?ms=N with Spring MVC's asynchronous request processing: the handler returns a
 * DeferredResult at once, which frees the XNIO worker, and a scheduled task sets the hello
 * answer N ms later
 * (https://docs.spring.io/spring-framework/reference/web/webmvc/mvc-ann-async.html).
 */
@RestController
public class DelayController {
    private final TaskScheduler scheduler;

    public DelayController(TaskScheduler delayScheduler) {
        this.scheduler = delayScheduler;
    }

    @GetMapping(Hello.DELAY_PATH)
    public DeferredResult<ResponseEntity<byte[]>> delay(
            @RequestParam(name = WaitMillis.PARAMETER, required = false) String ms) {
        DeferredResult<ResponseEntity<byte[]>> result = new DeferredResult<>();
        int millis = WaitMillis.parse(ms);
        if (millis == WaitMillis.INVALID) {
            result.setResult(HelloResponses.badRequest());
            return result;
        }
        Instant due = Instant.now().plus(Duration.ofMillis(millis));
        scheduler.schedule(() -> result.setResult(HelloResponses.hello()), due);
        return result;
    }
}
