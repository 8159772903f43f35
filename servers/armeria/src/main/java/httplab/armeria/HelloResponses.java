package httplab.armeria;

import com.linecorp.armeria.common.AggregatedHttpResponse;
import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpHeaderNames;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.ResponseHeaders;
import httplab.server.Hello;

/**
 * The responses, built once. Armeria adds its own cached Date header to each
 * (ServerBuilder.dateHeaderEnabled, on by default).
 */
final class HelloResponses {
    static final String SERVER_NAME = "Armeria";
    static final AggregatedHttpResponse HELLO = AggregatedHttpResponse.of(
            ResponseHeaders.builder(HttpStatus.OK)
                    // Set as text: Armeria's MediaType would print the charset as "utf-8".
                    .set(HttpHeaderNames.CONTENT_TYPE, Hello.CONTENT_TYPE)
                    .contentLength(Hello.BODY_BYTES.length)
                    .set(HttpHeaderNames.SERVER, SERVER_NAME)
                    .build(),
            HttpData.wrap(Hello.BODY_BYTES));

    private HelloResponses() {
    }

    static AggregatedHttpResponse empty(HttpStatus status) {
        return AggregatedHttpResponse.of(ResponseHeaders.builder(status)
                .contentLength(0)
                .set(HttpHeaderNames.SERVER, SERVER_NAME)
                .build());
    }
}
