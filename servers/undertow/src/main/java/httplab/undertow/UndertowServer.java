package httplab.undertow;

import com.zaxxer.hikari.HikariDataSource;
import httplab.server.DatabaseSettings;
import httplab.server.Launcher;
import httplab.server.ServerConfig;
import httplab.server.StartupLine;
import httplab.server.spring.ProtocolProperties;
import io.undertow.Undertow;
import java.net.BindException;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.embedded.undertow.UndertowWebServer;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.xnio.XnioWorker;

/**
 * Spring Boot (Spring MVC) on Undertow with a fixed pool of worker threads, and a HikariCP
 * pool of database connections when DB_PORT is set.
 */
@SpringBootApplication
public class UndertowServer {
    static final String FRAMEWORK = "Undertow";

    public static void main(String[] args) {
        Launcher.run(FRAMEWORK, () -> start(args));
    }

    static void start(String[] args) throws InterruptedException, BindException {
        ServerConfig config = ServerConfig.fromEnvironment();
        DatabaseSettings database = DatabaseSettings.fromEnvironment(config);
        Map<String, Object> protocol = ProtocolProperties.of(config);
        SpringApplication application = new SpringApplication(UndertowServer.class);
        // Highest precedence: ServerConfig (PORT, BIND_ADDRESS, WORKERS, PROTOCOL, TLS_*) and DatabaseSettings
        // (DB_*) are the only sources.
        application.addInitializers(context -> {
            MutablePropertySources sources = context.getEnvironment().getPropertySources();
            sources.addFirst(new MapPropertySource("httplab", springProperties(config)));
            sources.addFirst(new MapPropertySource("httplab-protocol", protocol));
            sources.addFirst(new MapPropertySource("httplab-database", DatabaseProperties.of(database)));
        });
        ConfigurableApplicationContext context = runReportingPortInUse(application, args);
        announce(config, webServerOf(context), dbPool(config, context));
    }

    /**
     * Spring's Undertow server drops the BindException behind its PortInUseException;
     * restoring it lets Launcher print its one-line "cannot listen" message.
     */
    private static ConfigurableApplicationContext runReportingPortInUse(
            SpringApplication application, String[] args) throws BindException {
        try {
            return application.run(args);
        } catch (RuntimeException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof PortInUseException portInUse) {
                    BindException bind = new BindException(portInUse.getMessage());
                    bind.initCause(e);
                    throw bind;
                }
            }
            throw e;
        }
    }

    static Map<String, Object> springProperties(ServerConfig config) {
        return Map.of(
                "server.port", config.port(),
                "server.address", config.bindAddress(),
                "server.undertow.threads.worker", config.workers(),
                "server.server-header", FRAMEWORK,
                "server.shutdown", "graceful",
                "spring.lifecycle.timeout-per-shutdown-phase", "3s");
    }

    private static UndertowWebServer webServerOf(ConfigurableApplicationContext context) {
        WebServer webServer = ((ServletWebServerApplicationContext) context).getWebServer();
        return (UndertowWebServer) webServer;
    }

    /** The maximumPoolSize the HikariCP pool reports; without a database, the manifest's db_pool. */
    private static int dbPool(ServerConfig config, ConfigurableApplicationContext context) {
        HikariDataSource pool = context.getBeanProvider(HikariDataSource.class).getIfAvailable();
        return pool == null ? config.dbPool() : pool.getMaximumPoolSize();
    }

    private static void announce(ServerConfig config, UndertowWebServer webServer, int dbPool)
            throws InterruptedException {
        Undertow undertow = webServer.getUndertow();
        XnioWorker worker = undertow.getWorker();
        int observed = WorkerPoolProbe.startAllAndCount(worker, config.workers());
        // /blocking runs on the worker pool itself: its size as XNIO reports it.
        int blockingPool = worker.getMXBean().getMaxWorkerPoolSize();
        StartupLine.print(FRAMEWORK, SpringBootVersion.getVersion(), worker.getXnio().getName(),
                config.workers(), observed, config.bindAddress() + ":" + webServer.getPort(),
                blockingPool, dbPool, config.executor(),
                config.protocol(), TlsEngine.of(undertow));
    }
}
