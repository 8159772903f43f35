package httplab.netty;

import httplab.server.ConfigException;
import httplab.server.ServerConfig;
import httplab.server.StartupLine;
import httplab.server.TlsFiles;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolConfig.Protocol;
import io.netty.handler.ssl.ApplicationProtocolConfig.SelectedListenerFailureBehavior;
import io.netty.handler.ssl.ApplicationProtocolConfig.SelectorFailureBehavior;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import javax.net.ssl.SSLException;

/**
 * The TLS context of h1-tls and h2, made Netty's documented way
 * (https://netty.io/wiki/requirements-for-4.x.html#tls): SslContextBuilder.forServer with the
 * run's PEM files, on the provider Netty picks by default, OpenSSL only when netty-tcnative is
 * on the class path, which this jar leaves out, so the JDK's SSLEngine. ALPN offers h2, then
 * http/1.1, for h2 (as Netty's HTTP/2 examples), and http/1.1 alone for h1-tls, so a client
 * offering h2 is never upgraded there.
 */
final class NettyTls {
    private NettyTls() {
    }

    /** The context for the protocol's connections; null for a protocol without TLS. */
    static SslContext contextFor(ServerConfig config) {
        TlsFiles files = config.tls();
        if (files == null) {
            return null;
        }
        try {
            return SslContextBuilder.forServer(files.certificate().toFile(), files.key().toFile())
                    .applicationProtocolConfig(alpn(config.usesHttp2()))
                    .build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new ConfigException("PROTOCOL=" + config.protocol() + ": Netty cannot make its TLS context from "
                    + TlsFiles.CERT_VARIABLE + " and " + TlsFiles.KEY_VARIABLE + ": " + ConfigException.reasonOf(e));
        }
    }

    /**
     * NO_ADVERTISE and ACCEPT, the behaviours both of Netty's providers support: a client
     * offering none of these protocols gets no ALPN answer, and the connection goes on.
     */
    private static ApplicationProtocolConfig alpn(boolean http2) {
        String[] protocols = http2
                ? new String[] {ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1}
                : new String[] {ApplicationProtocolNames.HTTP_1_1};
        return new ApplicationProtocolConfig(Protocol.ALPN, SelectorFailureBehavior.NO_ADVERTISE,
                SelectedListenerFailureBehavior.ACCEPT, protocols);
    }

    /**
     * The engine the context makes for each connection, from the context Netty built: the
     * JDK's SSLEngine (a JdkSslContext) or OpenSSL through netty-tcnative (a
     * ReferenceCountedOpenSslContext); none without TLS.
     */
    static String engineOf(SslContext context) {
        if (context == null) {
            return StartupLine.TLS_NONE;
        }
        if (context instanceof JdkSslContext) {
            return StartupLine.TLS_JDK;
        }
        if (context instanceof ReferenceCountedOpenSslContext) {
            return StartupLine.TLS_OPENSSL;
        }
        throw new IllegalStateException("Netty built a TLS context of an unknown engine: " + context.getClass());
    }
}
