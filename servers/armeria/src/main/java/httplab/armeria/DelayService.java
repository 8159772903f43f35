package httplab.armeria;

import com.linecorp.armeria.common.HttpRequest;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.ServiceRequestContext;
import httplab.server.WaitMillis;
import java.time.Duration;

/**
 * GET /delay?ms=N: HttpResponse.delayed publishes the hello world N ms later from a timer on
 * the request's own event loop, so no thread waits
 * (https://javadoc.io/doc/com.linecorp.armeria/armeria-javadoc/latest/com/linecorp/armeria/common/HttpResponse.html).
 */
final class DelayService implements HttpService {
    @Override
    public HttpResponse serve(ServiceRequestContext ctx, HttpRequest req) {
        int millis = WaitMillis.parse(ctx.queryParam(WaitMillis.PARAMETER));
        if (millis == WaitMillis.INVALID) {
            return HelloResponses.BAD_REQUEST.toHttpResponse();
        }
        return HttpResponse.delayed(HelloResponses.HELLO, Duration.ofMillis(millis), ctx.eventLoop());
    }
}
