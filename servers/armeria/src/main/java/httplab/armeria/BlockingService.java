package httplab.armeria;

import com.linecorp.armeria.common.HttpRequest;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.ServiceRequestContext;
import httplab.server.ThreadKind;
import httplab.server.WaitMillis;
import java.util.concurrent.CompletableFuture;

/**
 * GET /blocking?ms=N: the sleep runs on the server's blocking task executor, Armeria's pool
 * for blocking work (or a virtual thread per task: VirtualThreadExecutor), never on an event
 * loop (https://armeria.dev/docs/advanced/threading-model). The answer names the kind of
 * thread that slept (ThreadKind.HEADER).
 */
final class BlockingService implements HttpService {
    @Override
    public HttpResponse serve(ServiceRequestContext ctx, HttpRequest req) {
        int millis = WaitMillis.parse(ctx.queryParam(WaitMillis.PARAMETER));
        if (millis == WaitMillis.INVALID) {
            return HelloResponses.BAD_REQUEST.toHttpResponse();
        }
        return HttpResponse.of(CompletableFuture.supplyAsync(() -> sleepThenHello(millis),
                ctx.blockingTaskExecutor()));
    }

    private static HttpResponse sleepThenHello(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return HelloResponses.helloFrom(ThreadKind.current()).toHttpResponse();
    }
}
