package httplab.tomcat;

import javax.management.ObjectName;
import org.apache.coyote.http11.Http11NioProtocol;

/**
 * Boot's default protocol, Tomcat's Http11NioProtocol, named by its prefix alone ("http-nio")
 * instead of "http-nio-<address>-<port>". Tomcat names the connector's threads after it: the
 * request threads "<name>-exec-N", one poller and one acceptor. Linux keeps 15 characters of
 * a thread's name, which the address and port fill, so the lab, counting the request threads
 * by name (the manifest's blocking_thread_prefix), would count the other two with them; as
 * "http-nio-exec-N" they stand apart. Nothing else changes: Tomcat still builds the pool,
 * sized by server.tomcat.threads.*.
 */
public class ShortNamedNioProtocol extends Http11NioProtocol {
    @Override
    public String getName() {
        return ObjectName.quote(getNamePrefix());
    }
}
