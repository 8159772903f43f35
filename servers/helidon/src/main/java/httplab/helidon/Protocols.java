package httplab.helidon;

import httplab.server.ConfigException;
import httplab.server.ServerConfig;
import httplab.server.StartupLine;
import httplab.server.TlsFiles;
import io.helidon.common.configurable.Resource;
import io.helidon.common.pki.Keys;
import io.helidon.common.tls.Tls;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http1.Http1Config;

/**
 * PROTOCOL in Helidon's documented way (https://helidon.io/docs/v4/se/webserver/webserver,
 * "Configuring TLS" and "HTTP/2 Support"): h1-tls and h2 give the listener a Tls with the
 * run's PEM key and certificate chain (Keys.pem); HTTP/2 is the helidon-webserver-http2
 * module, whose connection selector, found on the class path, takes h2 by ALPN over TLS and,
 * in cleartext, HTTP/2 with prior knowledge or an HTTP/1.1 Upgrade (h2c). For h1 and h1-tls
 * the listener discovers no protocols and is given HTTP/1.1 alone, so it neither upgrades
 * nor offers h2 by ALPN: h1 answers as it did before the module was added.
 */
final class Protocols {
    private Protocols() {
    }

    static void configure(WebServerConfig.Builder server, ServerConfig config) {
        if (config.usesTls()) {
            server.tls(tls(config.tls(), config.protocol()));
        }
        if (!config.usesHttp2()) {
            server.protocolsDiscoverServices(false).addProtocol(Http1Config.create());
        }
    }

    /** The run's PEM files as Helidon's Tls; files it cannot use stop the server with its reason. */
    private static Tls tls(TlsFiles files, String protocol) {
        try {
            Keys keys = Keys.builder().pem(pem -> pem
                    .key(Resource.create(files.key()))
                    .certChain(Resource.create(files.certificate()))).build();
            return Tls.builder().privateKey(keys).privateKeyCertChain(keys).build();
        } catch (RuntimeException e) {
            throw new ConfigException("PROTOCOL=" + protocol
                    + ": Helidon cannot use TLS_CERT and TLS_KEY: " + ConfigException.reasonOf(e));
        }
    }

    /**
     * The TLS engine the server's listener runs, read from its Tls after start: Helidon's
     * SSLContext comes from the JDK's providers (SunJSSE: the JDK's SSLEngine) unless the Tls
     * names another provider; Helidon has no OpenSSL engine of its own.
     */
    static String tlsEngine(WebServerConfig server) {
        return server.tls().filter(Tls::enabled)
                .map(tls -> tls.sslContext().getProvider().getName().toLowerCase().contains("openssl")
                        ? StartupLine.TLS_OPENSSL : StartupLine.TLS_JDK)
                .orElse(StartupLine.TLS_NONE);
    }
}
