package httplab.webflux;

import httplab.server.ConfigException;
import httplab.server.netty.NettyEngine;
import io.netty.channel.Channel;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerConfig;

/**
 * The channel the HTTP server bound, as Reactor Netty hands it over (doOnBound), applied through
 * Spring Boot's NettyServerCustomizer: its class is the engine the server runs on. With it, the
 * configuration the server bound with (its protocols and TLS): Boot applies customizers last.
 */
final class BoundServer implements NettyServerCustomizer {
    private final AtomicReference<Channel> channel = new AtomicReference<>();
    private final AtomicReference<HttpServerConfig> configuration = new AtomicReference<>();

    @Override
    public HttpServer apply(HttpServer server) {
        return server.doOnBound(bound -> {
            configuration.set(server.configuration());
            channel.set(bound.channel());
        });
    }

    /**
     * The engine the bound channel runs on, which must be the one asked: Reactor Netty steps
     * down quietly (to epoll, then NIO) when a native engine cannot start.
     */
    String requireEngine(NettyEngine asked) {
        String running = NettyEngine.inUse(channel.get());
        if (!running.equals(asked.displayName())) {
            throw new ConfigException("TRANSPORT=" + asked.displayName() + ": Reactor Netty's server runs on "
                    + running + " instead: " + ConfigException.reasonOf(asked.unavailabilityCause()));
        }
        return running;
    }

    HttpServerConfig configuration() {
        return configuration.get();
    }
}
