package httplab.undertow;

import httplab.server.StartupLine;
import io.undertow.Undertow;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * The TLS engine Undertow's listener runs, read from it after start: the SSLContext of its
 * HTTPS listener, whose SSLEngine XNIO drives. Spring Boot builds it from its SSL bundle with
 * the JDK's provider (SunJSSE); OpenSSL would take the wildfly-openssl provider ("openssl").
 */
final class TlsEngine {
    private static final String OPENSSL_PROVIDER = "openssl";

    private TlsEngine() {
    }

    static String of(Undertow undertow) {
        List<SSLContext> contexts = undertow.getListenerInfo().stream()
                .map(Undertow.ListenerInfo::getSslContext).filter(context -> context != null).toList();
        if (contexts.isEmpty()) {
            return StartupLine.TLS_NONE;
        }
        String provider = contexts.get(0).getProvider().getName();
        return provider.toLowerCase().contains(OPENSSL_PROVIDER)
                ? StartupLine.TLS_OPENSSL : StartupLine.TLS_JDK;
    }
}
