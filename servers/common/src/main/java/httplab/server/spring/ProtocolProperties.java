package httplab.server.spring;

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
 * (https://docs.spring.io/spring-boot/how-to/webserver.html; Boot 3.5's the same,
 * https://docs.spring.io/spring-boot/3.5/how-to/webserver.html): h1-tls and
 * h2 give the server the run's PEM certificate and key (server.ssl.certificate,
 * server.ssl.certificate-private-key); h2c and h2 set server.http2.enabled. What each embedded
 * server makes of them, its manifest's protocols says. Shared by Undertow (Boot 3.5), Tomcat
 * and WebFlux (Boot 4), each on its own Boot, which has the PEM loader's signatures used here
 * in both lines (the spring-boot dependency in common/pom.xml is optional).
 */
public final class ProtocolProperties {
    private ProtocolProperties() {
    }

    /** Boot's properties for the protocol; files Boot cannot use stop the server here. */
    public static Map<String, Object> of(ServerConfig config) {
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
