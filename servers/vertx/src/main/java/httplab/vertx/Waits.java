package httplab.vertx;

import httplab.server.ThreadKind;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;

/**
 * /delay and /blocking, as the Vert.x core manual has them: a timer instead of a sleep on the
 * event loop, and executeBlocking for code that must block
 * (https://vertx.io/docs/vertx-core/java/#_one_shot_timers,
 * https://vertx.io/docs/vertx-core/java/#blocking_code), on the worker pool or, with
 * EXECUTOR=virtual, on a virtual thread (VirtualThreadWaits). The client may have gone while
 * the request waited: then nothing is written.
 */
final class Waits {
    private static final int INTERNAL_ERROR = 500;

    private Waits() {
    }

    /** A one-shot timer: it fires on this verticle's event loop, and no thread waits for it. */
    static void delay(Vertx vertx, HttpServerRequest request, int millis) {
        vertx.setTimer(millis, timerId -> {
            if (!request.response().closed()) {
                HelloResponses.hello(request);
            }
        });
    }

    /**
     * EXECUTOR=pool: blocks a thread of the Vert.x worker pool (VertxOptions.setWorkerPoolSize,
     * default DEFAULT_WORKER_POOL_SIZE). ordered = false: by default a context's
     * executeBlocking calls run one after another, and one verticle serves all of its event
     * loop's connections; the result comes back on that event loop.
     */
    static BlockingWait onWorkerPool(Vertx vertx) {
        return millis -> vertx.executeBlocking(() -> sleep(millis), false);
    }

    /** /blocking: the answer after the wait, naming the kind of thread that slept. */
    static void blocking(BlockingWait wait, HttpServerRequest request, int millis) {
        wait.sleep(millis).onComplete(slept -> {
            if (request.response().closed()) {
                return;
            }
            if (slept.succeeded()) {
                HelloResponses.hello(request, slept.result());
            } else {
                HelloResponses.empty(request.response(), INTERNAL_ERROR);
            }
        });
    }

    /** The blocking wait itself; the kind of thread it ran on (ThreadKind.current()). */
    static String sleep(int millis) throws InterruptedException {
        Thread.sleep(millis);
        return ThreadKind.current();
    }
}
