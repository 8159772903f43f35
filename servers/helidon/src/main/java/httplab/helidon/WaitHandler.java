package httplab.helidon;

import httplab.server.WaitMillis;
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
 * thread while it waits. A bad ms is 400 at once.
 */
final class WaitHandler implements Handler {
    @Override
    public void handle(ServerRequest req, ServerResponse res) throws InterruptedException {
        int millis = WaitMillis.parse(req.query().first(WaitMillis.PARAMETER).orElse(null));
        if (millis == WaitMillis.INVALID) {
            res.status(Status.BAD_REQUEST_400).send();
            return;
        }
        Thread.sleep(millis);
        Routes.hello(req, res);
    }
}
