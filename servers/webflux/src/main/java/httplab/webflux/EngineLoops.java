package httplab.webflux;

import httplab.server.netty.NettyEngine;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Mono;
import reactor.netty.resources.LoopResources;

/**
 * The server's LoopResources: workers daemon event loops on the engine TRANSPORT names, whatever
 * native preference Reactor Netty passes (reactor.netty.native). LoopResources.create cannot
 * say which native engine: Reactor Netty 1.3 takes io_uring whenever its jar is on the
 * classpath and the kernel allows it, epoll otherwise; for a group it is given, it picks the
 * channel class that matches the group's IoHandler.
 */
final class EngineLoops implements LoopResources {
    private final EventLoopGroup group;

    EngineLoops(NettyEngine engine, String threadPrefix, int workers) {
        this.group = engine.newGroup(workers,
                new DefaultThreadFactory(threadPrefix + "-" + engine.displayName(), true));
    }

    @Override
    public EventLoopGroup onServer(boolean useNative) {
        return group;
    }

    @Override
    public boolean daemon() {
        return true;
    }

    @Override
    public boolean isDisposed() {
        return group.isShutdown();
    }

    @Override
    public Mono<Void> disposeLater(Duration quietPeriod, Duration timeout) {
        return Mono.create(sink -> group.shutdownGracefully(quietPeriod.toMillis(),
                        timeout.toMillis(), TimeUnit.MILLISECONDS)
                .addListener(done -> sink.success()));
    }
}
