package httplab.armeria;

import com.linecorp.armeria.common.AggregatedHttpResponse;
import com.linecorp.armeria.common.HttpHeaderNames;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.RequestHeaders;
import com.linecorp.armeria.server.ServerErrorHandler;
import com.linecorp.armeria.server.ServiceConfig;
import com.linecorp.armeria.server.ServiceRequestContext;

/**
 * Gives Armeria's own 404 and 405 answers the same Server header and empty body as the
 * others, and the 405 its Allow header.
 */
final class HelloErrorHandler implements ServerErrorHandler {
    private static final AggregatedHttpResponse NOT_FOUND = HelloResponses.empty(HttpStatus.NOT_FOUND);
    /** Every route answers GET and HEAD only, so that is what a 405 allows (RFC 9110 15.5.6). */
    private static final AggregatedHttpResponse METHOD_NOT_ALLOWED = AggregatedHttpResponse.of(
            HelloResponses.emptyHeaders(HttpStatus.METHOD_NOT_ALLOWED)
                    .set(HttpHeaderNames.ALLOW, "GET, HEAD")
                    .build());

    @Override
    public HttpResponse onServiceException(ServiceRequestContext ctx, Throwable cause) {
        return null; // Armeria's default handling
    }

    @Override
    public AggregatedHttpResponse renderStatus(ServiceRequestContext ctx, ServiceConfig config,
                                               RequestHeaders headers, HttpStatus status,
                                               String description, Throwable cause) {
        if (status.equals(HttpStatus.NOT_FOUND)) {
            return NOT_FOUND;
        }
        if (status.equals(HttpStatus.METHOD_NOT_ALLOWED)) {
            return METHOD_NOT_ALLOWED;
        }
        return null; // Armeria's default rendering
    }
}
