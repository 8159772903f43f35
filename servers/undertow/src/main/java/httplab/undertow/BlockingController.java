package httplab.undertow;

import httplab.server.Hello;
import httplab.server.ThreadKind;
import httplab.server.WaitMillis;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * GET /blocking?ms=N: a plain Spring MVC handler, which Undertow runs on one of its XNIO
 * worker threads, the pool where blocking is allowed
 * (https://undertow.io/undertow-docs/undertow-docs-2.1.0/undertow-handler-guide.html; its
 * size is server.undertow.threads.worker), so it simply sleeps on that thread, and names
 * its kind (ThreadKind; always platform: EXECUTOR is pool only here, see server.toml).
 */
@RestController
public class BlockingController {
    @GetMapping(Hello.BLOCKING_PATH)
    public ResponseEntity<byte[]> blocking(
            @RequestParam(name = WaitMillis.PARAMETER, required = false) String ms)
            throws InterruptedException {
        int millis = WaitMillis.parse(ms);
        if (millis == WaitMillis.INVALID) {
            return HelloResponses.badRequest();
        }
        Thread.sleep(millis);
        return HelloResponses.slept(ThreadKind.current());
    }
}
