package httplab.tomcat;

import httplab.server.Hello;
import httplab.server.ThreadKind;
import httplab.server.WaitMillis;
import java.time.Instant;
import org.springframework.http.ResponseEntity;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * GET /delay?ms=N and /blocking?ms=N: the hello world after N ms.
 * /delay uses Spring MVC's asynchronous request processing: the handler returns a
 * DeferredResult at once, which gives the Tomcat thread back, and the one timer thread
 * (Timers) sets the answer N ms later
 * (https://docs.spring.io/spring-framework/reference/web/webmvc/mvc-ann-async.html).
 * /blocking is a plain handler that sleeps on the request's own thread: one of Tomcat's
 * pool, which server.tomcat.threads.max sizes, or with EXECUTOR=virtual a virtual thread
 * of its own (see TomcatServer); its answer names which (ThreadKind).
 */
@RestController
public class WaitEndpoints {
    private final TaskScheduler timer;

    public WaitEndpoints(TaskScheduler delayTimer) {
        this.timer = delayTimer;
    }

    @GetMapping(Hello.DELAY_PATH)
    public DeferredResult<ResponseEntity<byte[]>> delay(
            @RequestParam(name = WaitMillis.PARAMETER, required = false) String ms) {
        int millis = WaitMillis.parse(ms);
        DeferredResult<ResponseEntity<byte[]>> answer = new DeferredResult<>();
        if (millis == WaitMillis.INVALID) {
            answer.setResult(Answers.badRequest());
        } else {
            timer.schedule(() -> answer.setResult(Answers.hello()), Instant.now().plusMillis(millis));
        }
        return answer;
    }

    @GetMapping(Hello.BLOCKING_PATH)
    public ResponseEntity<byte[]> blocking(
            @RequestParam(name = WaitMillis.PARAMETER, required = false) String ms)
            throws InterruptedException {
        int millis = WaitMillis.parse(ms);
        if (millis == WaitMillis.INVALID) {
            return Answers.badRequest();
        }
        Thread.sleep(millis);
        return Answers.slept(ThreadKind.current());
    }
}
