package httplab.armeria;

import com.linecorp.armeria.common.AggregatedHttpResponse;
import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpHeaderNames;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.ResponseHeaders;
import com.linecorp.armeria.common.ResponseHeadersBuilder;
import httplab.server.Hello;
import httplab.server.ThreadKind;

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

    private static final AggregatedHttpResponse HELLO_FROM_PLATFORM = helloWithThread(ThreadKind.PLATFORM);
    private static final AggregatedHttpResponse HELLO_FROM_VIRTUAL = helloWithThread(ThreadKind.VIRTUAL);

    /** A bad ?ms= of /delay and /blocking: empty, answered at once. */
    static final AggregatedHttpResponse BAD_REQUEST = empty(HttpStatus.BAD_REQUEST);

    private HelloResponses() {
    }

    /** /blocking's hello world, naming the kind of thread that slept (ThreadKind.current()). */
    static AggregatedHttpResponse helloFrom(String threadKind) {
        return ThreadKind.VIRTUAL.equals(threadKind) ? HELLO_FROM_VIRTUAL : HELLO_FROM_PLATFORM;
    }

    private static AggregatedHttpResponse helloWithThread(String threadKind) {
        return AggregatedHttpResponse.of(
                HELLO.headers().toBuilder().set(ThreadKind.HEADER, threadKind).build(), HELLO.content());
    }

    static AggregatedHttpResponse empty(HttpStatus status) {
        return AggregatedHttpResponse.of(emptyHeaders(status).build());
    }

    static ResponseHeadersBuilder emptyHeaders(HttpStatus status) {
        return ResponseHeaders.builder(status)
                .contentLength(0)
                .set(HttpHeaderNames.SERVER, SERVER_NAME);
    }
}
