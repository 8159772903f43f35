package httplab.vertx;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;

/**
 * /delay and /blocking, as the Vert.x core manual has them: a timer instead of a sleep on the
 * event loop, and executeBlocking for code that must block
 * (https://vertx.io/docs/vertx-core/java/#_one_shot_timers,
 * https://vertx.io/docs/vertx-core/java/#blocking_code).
 */
final class Waits {
    private static final int INTERNAL_ERROR = 500;

    private Waits() {
    }

    /** A one-shot timer: it fires on this verticle's event loop, and no thread waits for it. */
    static void delay(Vertx vertx, HttpServerResponse response, int millis) {
        vertx.setTimer(millis, timerId -> answer(response, true));
    }

    /**
     * Blocks a thread of the Vert.x worker pool (VertxOptions.setWorkerPoolSize, default
     * DEFAULT_WORKER_POOL_SIZE). ordered = false: by default a context's executeBlocking calls
     * run one after another, and one verticle serves all of its event loop's connections; the
     * result comes back on that event loop.
     */
    static void blocking(Vertx vertx, HttpServerResponse response, int millis) {
        vertx.executeBlocking(() -> {
            Thread.sleep(millis);
            return null;
        }, false).onComplete(slept -> answer(response, slept.succeeded()));
    }

    /** The client may have gone while the request waited. */
    private static void answer(HttpServerResponse response, boolean waited) {
        if (response.closed()) {
            return;
        }
        if (waited) {
            HelloResponses.hello(response);
        } else {
            HelloResponses.empty(response, INTERNAL_ERROR);
        }
    }
}
