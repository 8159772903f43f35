package httplab.undertow;

import httplab.server.ConfigException;
import httplab.server.ServerConfig;
import httplab.server.TlsFiles;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.ssl.pem.PemSslStoreBundle;
import org.springframework.boot.ssl.pem.PemSslStoreDetails;

/**
 * PROTOCOL as Spring Boot's documented properties, "Configure SSL" and "Configure HTTP/2"
 * (https://docs.spring.io/spring-boot/3.5/how-to/webserver.html): h1-tls and h2 give Undertow
 * an HTTPS listener with the run's PEM certificate and key (server.ssl.certificate,
 * server.ssl.certificate-private-key); h2c and h2 set server.http2.enabled, which Boot passes
 * on as UndertowOptions.ENABLE_HTTP2: Undertow then offers h2 by ALPN over TLS and, in
 * cleartext, takes HTTP/2 from an HTTP/1.1 Upgrade or from a connection that opens with the
 * HTTP/2 preface (prior knowledge). Without it the HTTPS listener negotiates no ALPN protocol,
 * so a client asking for h2 gets HTTP/1.1.
 */
final class ProtocolProperties {
    private ProtocolProperties() {
    }

    static Map<String, Object> of(ServerConfig config) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("server.http2.enabled", config.usesHttp2());
        TlsFiles tls = config.tls();
        if (tls != null) {
            String certificate = resource(tls.certificate());
            String key = resource(tls.key());
            checkLoadable(certificate, key, config.protocol());
            properties.putAll(Map.of("server.ssl.enabled", true, "server.ssl.certificate", certificate,
                    "server.ssl.certificate-private-key", key));
        }
        return properties;
    }

    /**
     * Loads the run's files as Boot's PEM key store, as the server will: a file Boot cannot use
     * stops the server before start with Boot's reason, never a server without TLS.
     */
    private static void checkLoadable(String certificate, String key, String protocol) {
        try {
            PemSslStoreDetails details = PemSslStoreDetails.forCertificate(certificate).withPrivateKey(key);
            new PemSslStoreBundle(details, null).getKeyStore();
        } catch (RuntimeException e) {
            throw new ConfigException("PROTOCOL=" + protocol
                    + ": Spring Boot cannot use TLS_CERT and TLS_KEY: " + ConfigException.reasonOf(e));
        }
    }

    /** Spring's resource location of a file. */
    private static String resource(Path file) {
        return file.toAbsolutePath().toUri().toString();
    }
}
