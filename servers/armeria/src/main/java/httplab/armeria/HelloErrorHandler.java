package httplab.armeria;

import com.linecorp.armeria.common.AggregatedHttpResponse;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.RequestHeaders;
import com.linecorp.armeria.server.ServerErrorHandler;
import com.linecorp.armeria.server.ServiceConfig;
import com.linecorp.armeria.server.ServiceRequestContext;

/** Gives Armeria's own 404 and 405 answers the same Server header and empty body as the others. */
final class HelloErrorHandler implements ServerErrorHandler {
    private static final AggregatedHttpResponse NOT_FOUND = HelloResponses.empty(HttpStatus.NOT_FOUND);
    private static final AggregatedHttpResponse METHOD_NOT_ALLOWED =
            HelloResponses.empty(HttpStatus.METHOD_NOT_ALLOWED);

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
