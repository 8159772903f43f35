package httplab.tomcat;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/** Gives Tomcat's connector the ShortNamedNioProtocol, through Boot's factory. */
@Component
public class ShortNamedNioCustomizer
        implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {
    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.setProtocol(ShortNamedNioProtocol.class.getName());
    }
}
