package httplab.armeria;

import com.linecorp.armeria.common.util.TlsEngineType;
import com.linecorp.armeria.server.Server;
import com.linecorp.armeria.server.ServerBuilder;
import com.linecorp.armeria.server.VirtualHost;
import httplab.server.ConfigException;
import httplab.server.ServerConfig;
import httplab.server.StartupLine;
import httplab.server.TlsFiles;
import java.net.InetSocketAddress;

/**
 * PROTOCOL on Armeria, its documented way (ServerBuilder's http(), https() and tls()): h1 and
 * h2c on an http() port, which serves HTTP/1.1 and HTTP/2 with prior knowledge (a connection
 * that opens with the client preface) alike; h1-tls and h2 on an https() port given the run's
 * PEM files by tls(TLS_CERT, TLS_KEY), whose ALPN offers h2 and http/1.1 alike. Armeria has no
 * narrower port: ServerPort takes HTTP, HTTPS or PROXY only (not its SessionProtocol H1, H1C,
 * H2 or H2C), and it sets the ALPN list itself, after any tlsCustomizer, so h1-tls answers a
 * client that offers h2 with HTTP/2, and one that offers only http/1.1 (wrk, curl --http1.1)
 * with HTTP/1.1.
 */
final class ArmeriaProtocol {
    private ArmeriaProtocol() {
    }

    /** The server's one port, with its TLS files for a protocol over TLS. */
    static ServerBuilder listen(ServerBuilder builder, ServerConfig config) {
        InetSocketAddress address = new InetSocketAddress(config.bindAddress(), config.port());
        TlsFiles files = config.tls();
        if (files == null) {
            return builder.http(address);
        }
        try {
            return builder.https(address).tls(files.certificate().toFile(), files.key().toFile());
        } catch (IllegalArgumentException e) {
            throw new ConfigException("PROTOCOL=" + config.protocol() + ": Armeria cannot serve TLS with "
                    + TlsFiles.CERT_VARIABLE + " and " + TlsFiles.KEY_VARIABLE + ": " + ConfigException.reasonOf(e));
        }
    }

    /**
     * The TLS engine the started server's default virtual host built its TLS context with
     * (VirtualHost.tlsEngineType): OpenSSL (BoringSSL, netty-tcnative's, which Armeria brings)
     * by default, the JDK's SSLEngine where Armeria's flag tlsEngineType says jdk or OpenSSL
     * cannot load; none without a TLS context.
     */
    static String tlsEngine(Server server) {
        VirtualHost host = server.config().defaultVirtualHost();
        if (host.sslContext() == null) {
            return StartupLine.TLS_NONE;
        }
        return host.tlsEngineType() == TlsEngineType.OPENSSL ? StartupLine.TLS_OPENSSL : StartupLine.TLS_JDK;
    }
}
