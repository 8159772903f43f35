package httplab.armeria;

import com.linecorp.armeria.common.HttpHeaderNames;
import com.linecorp.armeria.common.HttpRequest;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.ResponseHeaders;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.ServiceRequestContext;
import httplab.server.Hello;

/**
 * GET /json: HttpResponse.ofJson serializes the record per request with Armeria's Jackson
 * ObjectMapper
 * (https://javadoc.io/doc/com.linecorp.armeria/armeria-javadoc/latest/com/linecorp/armeria/common/HttpResponse.html).
 */
final class JsonService implements HttpService {
    private static final ResponseHeaders HEADERS = ResponseHeaders.builder(HttpStatus.OK)
            .contentType(MediaType.JSON)
            .set(HttpHeaderNames.SERVER, HelloResponses.SERVER_NAME)
            .build();

    @Override
    public HttpResponse serve(ServiceRequestContext ctx, HttpRequest req) {
        return HttpResponse.ofJson(HEADERS, Hello.Message.hello());
    }
}
