package httplab.helidon;

import httplab.server.ThreadKind;
import httplab.server.WaitMillis;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * GET /delay?ms=N and /blocking?ms=N alike: the handler sleeps N ms, then answers. Helidon
 * runs each request on a virtual thread of its own and asks handlers to wait for what they
 * need and send from that thread ("as we run in Virtual Threads, you can simply wait":
 * https://helidon.io/docs/v4/se/webserver/webserver#anchor-sending-response); the sleep
 * parks that virtual thread only and frees its carrier, so neither endpoint holds a pool's
 * thread while it waits. A bad ms is 400 at once. /blocking's answer names the kind of thread
 * that slept (header ThreadKind.HEADER): Helidon has no other executor (EXECUTOR=virtual only).
 */
final class WaitHandler implements Handler {
    private static final HeaderName THREAD_KIND = HeaderNames.create(ThreadKind.HEADER);
    private final boolean reportsThread;

    private WaitHandler(boolean reportsThread) {
        this.reportsThread = reportsThread;
    }

    static WaitHandler delay() {
        return new WaitHandler(false);
    }

    static WaitHandler blocking() {
        return new WaitHandler(true);
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) throws InterruptedException {
        int millis = WaitMillis.parse(req.query().first(WaitMillis.PARAMETER).orElse(null));
        if (millis == WaitMillis.INVALID) {
            res.status(Status.BAD_REQUEST_400).send();
            return;
        }
        Thread.sleep(millis);
        if (reportsThread) {
            res.header(THREAD_KIND, ThreadKind.current());
        }
        Routes.hello(req, res);
    }
}
