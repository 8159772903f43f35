package httplab.webflux;

import httplab.server.ConfigException;
import httplab.server.ServerConfig;
import httplab.server.StartupLine;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.SslContext;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.server.HttpServerConfig;
import reactor.netty.tcp.SslProvider;

/**
 * PROTOCOL for Spring Boot on Reactor Netty, read back from the bound server. It is given by
 * Boot's own properties (common's spring.ProtocolProperties): server.ssl.* with the run's PEM
 * files for TLS, and server.http2.enabled for HTTP/2, which Boot's
 * NettyReactiveWebServerFactory serves as Reactor Netty's H2 beside HTTP/1.1 over TLS (ALPN)
 * and as H2C beside HTTP/1.1 without it (prior knowledge or upgrade). h1-tls is TLS with HTTP/2
 * off, so Reactor Netty offers HTTP/1.1 only.
 */
final class Protocols {
    private static final Map<String, HttpProtocol> SERVED_AS = Map.of(
            ServerConfig.H1, HttpProtocol.HTTP11, ServerConfig.H1_TLS, HttpProtocol.HTTP11,
            ServerConfig.H2C, HttpProtocol.H2C, ServerConfig.H2, HttpProtocol.H2);

    private Protocols() {
    }

    /**
     * The TLS engine of the bound server, read from its configuration: the class of the
     * SslContext of Reactor Netty's SslProvider (none without one). The server must serve what
     * was asked (Reactor Netty's HttpProtocol, TLS or not); otherwise ConfigException.
     */
    static String tlsEngine(HttpServerConfig bound, ServerConfig config) {
        List<HttpProtocol> served = Arrays.asList(bound.protocols());
        SslProvider ssl = bound.sslProvider();
        if (!served.contains(SERVED_AS.get(config.protocol())) || (ssl != null) != config.usesTls()) {
            throw new ConfigException("PROTOCOL=" + config.protocol() + ": Reactor Netty serves "
                    + served + (ssl == null ? " without TLS" : " over TLS") + " instead");
        }
        return ssl == null ? StartupLine.TLS_NONE : engineOf(ssl.getSslContext());
    }

    private static String engineOf(SslContext context) {
        if (context instanceof JdkSslContext) {
            return StartupLine.TLS_JDK;
        }
        return context instanceof ReferenceCountedOpenSslContext
                ? StartupLine.TLS_OPENSSL : context.getClass().getSimpleName();
    }
}
