package httplab.tomcat;

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
 * (https://docs.spring.io/spring-boot/how-to/webserver.html): h1-tls and h2 give Tomcat's connector the run's PEM
 * certificate and key (server.ssl.certificate, server.ssl.certificate-private-key); h2c and h2
 * set server.http2.enabled, on which Boot adds Tomcat's Http2Protocol to the connector as its
 * upgrade protocol, negotiated by ALPN over TLS and, in cleartext, taken from an HTTP/1.1
 * Upgrade or a connection that opens with the HTTP/2 preface (prior knowledge). Without it,
 * h1-tls offers no ALPN protocol at all, so a client asking for h2 gets HTTP/1.1.
 */
final class ProtocolProperties {
    private ProtocolProperties() {
    }

    static Map<String, Object> of(ServerConfig config) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("server.http2.enabled", config.usesHttp2());
        TlsFiles tls = config.tls();
        if (tls != null) {
            String certificate = location(tls.certificate());
            String key = location(tls.key());
            checkLoadable(certificate, key, config.protocol());
            properties.put("server.ssl.enabled", true);
            properties.put("server.ssl.certificate", certificate);
            properties.put("server.ssl.certificate-private-key", key);
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

    /** A file as a Spring resource location. */
    private static String location(Path file) {
        return file.toAbsolutePath().toUri().toString();
    }
}
