package httplab.vertx;

import httplab.server.ConfigException;
import httplab.server.ServerConfig;
import httplab.server.StartupLine;
import httplab.server.TlsFiles;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.internal.tls.SslContextManager;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.SSLEngineOptions;
import java.util.List;

/**
 * PROTOCOL for Vert.x, as its core manual has it: TLS with a PEM key and certificate
 * (PemKeyCertOptions), h2 by ALPN offering HTTP/2 then HTTP/1.1, h1-tls by ALPN offering
 * HTTP/1.1 only, and h2c on the plaintext port, where Vert.x takes the HTTP/2 preface at once
 * (setHttp2ClearTextEnabled). h1 keeps the options as they were.
 */
final class Protocols {
    private Protocols() {
    }

    /** The options every verticle's HTTP server takes (Vert.x copies them for each server). */
    static HttpServerOptions serverOptions(Vertx vertx, ServerConfig config) {
        HttpServerOptions options = new HttpServerOptions().setTcpNoDelay(true);
        return switch (config.protocol()) {
            case ServerConfig.H2C -> options.setHttp2ClearTextEnabled(true);
            case ServerConfig.H1_TLS -> withTls(vertx, config, options, List.of(HttpVersion.HTTP_1_1));
            case ServerConfig.H2 -> withTls(vertx, config, options,
                    List.of(HttpVersion.HTTP_2, HttpVersion.HTTP_1_1));
            default -> options;
        };
    }

    /**
     * TLS with ALPN offering the versions given. The key and certificate are loaded once here,
     * by Vert.x, so files it cannot use stop the server with its reason before it listens.
     */
    private static HttpServerOptions withTls(Vertx vertx, ServerConfig config,
                                             HttpServerOptions options, List<HttpVersion> alpn) {
        TlsFiles files = config.tls();
        PemKeyCertOptions keyCert = new PemKeyCertOptions()
                .setCertPath(files.certificate().toString()).setKeyPath(files.key().toString());
        try {
            keyCert.getKeyManagerFactory(vertx);
        } catch (Exception e) {
            throw refused(config, e);
        }
        return options.setSsl(true).setKeyCertOptions(keyCert)
                .setUseAlpn(true).setAlpnVersions(alpn);
    }

    /**
     * The TLS engine of the options the servers listen with: the SSLEngineOptions Vert.x's own
     * SslContextManager resolves from them, as its NetServer does when it listens (the JDK's
     * unless OpenSSLEngineOptions are set, or ALPN needs OpenSSL).
     */
    static String tlsEngine(HttpServerOptions options, ServerConfig config) {
        if (!options.isSsl()) {
            return StartupLine.TLS_NONE;
        }
        try {
            SSLEngineOptions engine = SslContextManager.resolveEngineOptions(
                    options.getSslEngineOptions(), options.isUseAlpn());
            return engine instanceof OpenSSLEngineOptions ? StartupLine.TLS_OPENSSL : StartupLine.TLS_JDK;
        } catch (RuntimeException e) {
            throw refused(config, e);
        }
    }

    private static ConfigException refused(ServerConfig config, Exception cause) {
        return new ConfigException("PROTOCOL=" + config.protocol() + ": Vert.x cannot serve it: "
                + ConfigException.reasonOf(cause));
    }
}
