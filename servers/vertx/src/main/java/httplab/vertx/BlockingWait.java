package httplab.vertx;

import io.vertx.core.Future;

/**
 * Where /blocking's wait runs (EXECUTOR): on Vert.x's worker pool (pool) or on a virtual
 * thread (virtual). The future completes, on the calling event loop, with the kind of the
 * thread that slept (ThreadKind.current() there), which the answer reports.
 */
@FunctionalInterface
interface BlockingWait {
    Future<String> sleep(int millis);
}
