package httplab.tomcat;

import httplab.server.StartupLine;
import java.util.Arrays;
import java.util.List;
import org.apache.coyote.ProtocolHandler;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;

/**
 * The TLS engine Tomcat's connector runs, read from it after start: the SSLContext each of its
 * certificates was given by the connector's SSLImplementation, JSSE's (the JDK's SSLEngine,
 * Tomcat's default) or OpenSSL's (only with tomcat-native, or Java 22+'s FFM, and the
 * OpenSSL listener configured).
 */
final class TlsEngine {
    private static final String JSSE = "org.apache.tomcat.util.net.jsse.";
    private static final String OPENSSL = "org.apache.tomcat.util.net.openssl.";

    private TlsEngine() {
    }

    static String of(ProtocolHandler protocol) {
        if (!(protocol instanceof AbstractHttp11Protocol<?> http) || !http.isSSLEnabled()) {
            return StartupLine.TLS_NONE;
        }
        List<String> contexts = Arrays.stream(http.findSslHostConfigs())
                .flatMap(host -> host.getCertificates().stream())
                .map(SSLHostConfigCertificate::getSslContext)
                .map(context -> context == null ? "none" : context.getClass().getName())
                .distinct().toList();
        if (contexts.size() == 1 && contexts.get(0).startsWith(JSSE)) {
            return StartupLine.TLS_JDK;
        }
        if (contexts.size() == 1 && contexts.get(0).startsWith(OPENSSL)) {
            return StartupLine.TLS_OPENSSL;
        }
        throw new IllegalStateException("Tomcat's connector runs TLS on " + contexts
                + ", neither JSSE nor OpenSSL");
    }
}
