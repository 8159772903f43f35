package httplab.vertx;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;

/**
 * EXECUTOR=virtual: /blocking's wait in a virtual thread verticle, Vert.x's own way to run
 * blocking work on virtual threads (DeploymentOptions.setThreadingModel(VIRTUAL_THREAD):
 * https://vertx.io/docs/vertx-core/java/#virtual_threads). The event-loop verticles still
 * serve every request; they hand each wait to this verticle as a task on its context and
 * answer, on their own event loop, when it completes. A virtual thread verticle runs one task
 * at a time, and takes the next only while a task awaits a future (a task that blocks without
 * await holds it, as a worker verticle would), so each task awaits executeBlocking, which
 * Vert.x runs on a new virtual thread of its own in a virtual thread verticle's context.
 * Not the event bus: its consumer delivers the next message only when the handler returns.
 */
final class VirtualThreadWaits extends VerticleBase implements BlockingWait {
    private VirtualThreadWaits() {
    }

    static Future<BlockingWait> deploy(Vertx vertx) {
        VirtualThreadWaits waits = new VirtualThreadWaits();
        DeploymentOptions options = new DeploymentOptions()
                .setThreadingModel(ThreadingModel.VIRTUAL_THREAD);
        return vertx.deployVerticle(waits, options).map(id -> waits);
    }

    /** Called on an event loop; the future completes there. */
    @Override
    public Future<String> sleep(int millis) {
        Promise<String> slept = ((VertxInternal) vertx).getOrCreateContext().promise();
        context.runOnContext(task -> {
            try {
                slept.complete(vertx.executeBlocking(() -> Waits.sleep(millis), false).await());
            } catch (Exception e) {
                slept.fail(e);
            }
        });
        return slept.future();
    }
}
