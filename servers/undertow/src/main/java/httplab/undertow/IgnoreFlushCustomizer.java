package httplab.undertow;

import org.springframework.boot.web.embedded.undertow.UndertowServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Spring MVC's Jackson converter flushes the servlet stream after writing, which commits a
 * /json answer as Transfer-Encoding: chunked. Undertow's ignore-flush deployment option
 * (DeploymentInfo.setIgnoreFlush, applied through Spring Boot's UndertowDeploymentInfoCustomizer)
 * skips flushes once the request is fully read, so Undertow sends Content-Length at the end
 * (https://undertow.io/javadoc/2.1.x/io/undertow/servlet/api/DeploymentInfo.html).
 */
@Component
public class IgnoreFlushCustomizer
        implements WebServerFactoryCustomizer<UndertowServletWebServerFactory> {
    @Override
    public void customize(UndertowServletWebServerFactory factory) {
        factory.addDeploymentInfoCustomizers(deployment -> deployment.setIgnoreFlush(true));
    }
}
