package httplab.tomcat;

import com.zaxxer.hikari.HikariDataSource;
import httplab.server.DatabaseSettings;
import httplab.server.Launcher;
import httplab.server.ServerConfig;
import httplab.server.StartupLine;
import httplab.server.spring.ProtocolProperties;
import java.util.HashMap;
import java.util.Map;
import org.apache.coyote.AbstractProtocol;
import org.apache.coyote.ProtocolHandler;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Spring Boot 4 (Spring MVC) on embedded Tomcat, Boot's default server, with Tomcat's own
 * pool of request threads sized by server.tomcat.threads.max (EXECUTOR=pool) or a virtual
 * thread per request (EXECUTOR=virtual, Boot's spring.threads.virtual.enabled), and a
 * HikariCP pool of database connections when DB_PORT is set.
 */
@SpringBootApplication
public class TomcatServer {
    static final String FRAMEWORK = "Tomcat";

    public static void main(String[] args) {
        Launcher.run(FRAMEWORK, () -> start(args));
    }

    static void start(String[] args) throws InterruptedException {
        ServerConfig config = ServerConfig.fromEnvironment();
        Map<String, Object> properties = new HashMap<>(springProperties(config));
        properties.putAll(ProtocolProperties.of(config));
        properties.putAll(DatabaseProperties.of(DatabaseSettings.fromEnvironment(config)));
        SpringApplication application = new SpringApplication(TomcatServer.class);
        // First in precedence: the environment reaches Spring only through ServerConfig
        // (PORT, BIND_ADDRESS, WORKERS, PROTOCOL, TLS_*) and DatabaseSettings (DB_*).
        application.addInitializers(context -> context.getEnvironment().getPropertySources()
                .addFirst(new MapPropertySource("httplab", properties)));
        announce(config, application.run(args));
    }

    /**
     * The lab's settings; of Boot's defaults only one is changed here: Tomcat closes a
     * connection after 100 requests (server.tomcat.max-keep-alive-requests), where every
     * other server keeps it as long as the client does, as the lab's check asks (1000
     * requests on one connection) and wrk assumes; -1 is Tomcat's own "unlimited".
     * EXECUTOR=virtual is Boot's spring.threads.virtual.enabled: Tomcat then runs each
     * request on a virtual thread of its own, and server.tomcat.threads.max sizes nothing.
     */
    static Map<String, Object> springProperties(ServerConfig config) {
        return Map.of(
                "server.port", config.port(),
                "server.address", config.bindAddress(),
                "server.tomcat.threads.max", config.workers(),
                "spring.threads.virtual.enabled", config.virtualThreads(),
                "server.tomcat.max-keep-alive-requests", -1,
                "server.server-header", FRAMEWORK,
                "server.shutdown", "graceful",
                "spring.lifecycle.timeout-per-shutdown-phase", "3s");
    }

    private static void announce(ServerConfig config, ConfigurableApplicationContext context)
            throws InterruptedException {
        TomcatWebServer webServer = (TomcatWebServer)
                ((ServletWebServerApplicationContext) context).getWebServer();
        ProtocolHandler protocol = webServer.getTomcat().getConnector().getProtocolHandler();
        int observed = WorkerPoolProbe.threadsAtOnce(protocol.getExecutor(), config.workers());
        StartupLine.print(FRAMEWORK, SpringBootVersion.getVersion(), transport(protocol),
                config.workers(), observed, config.bindAddress() + ":" + webServer.getPort(),
                requestsAtOnce(protocol), dbPool(config, context), config.executor(),
                config.protocol(), TlsEngine.of(protocol));
    }

    /**
     * The most /blocking requests that sleep at once, as Tomcat reports it: /blocking runs
     * on the request's own thread, so its pool's maximum; on virtual threads, which Tomcat
     * starts one per request and never caps, the most connections it serves at once
     * (maxConnections, 8192 by default for NIO), each with one request in flight.
     */
    static int requestsAtOnce(ProtocolHandler protocol) {
        if (protocol.getExecutor() instanceof ThreadPoolExecutor pool) {
            return pool.getMaximumPoolSize();
        }
        return ((AbstractProtocol<?>) protocol).getMaxConnections();
    }

    /** "nio" for Http11NioProtocol, Boot's default; otherwise the protocol's class name. */
    static String transport(ProtocolHandler protocol) {
        String name = protocol.getClass().getSimpleName();
        return name.contains("Nio") ? "nio" : name;
    }

    /** The maximumPoolSize the HikariCP pool reports; without a database, the manifest's db_pool. */
    private static int dbPool(ServerConfig config, ConfigurableApplicationContext context) {
        HikariDataSource pool = context.getBeanProvider(HikariDataSource.class).getIfAvailable();
        return pool == null ? config.dbPool() : pool.getMaximumPoolSize();
    }
}
