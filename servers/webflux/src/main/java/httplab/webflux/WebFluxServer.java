package httplab.webflux;

import httplab.server.DatabaseSettings;
import httplab.server.Launcher;
import httplab.server.ServerConfig;
import httplab.server.StartupLine;
import httplab.server.netty.NettyEngine;
import httplab.server.spring.ProtocolProperties;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.http.client.ReactorResourceFactory;
import reactor.core.scheduler.Scheduler;
import reactor.netty.resources.LoopResources;

/**
 * Spring Boot WebFlux on Reactor Netty with a fixed number of event loops on the engine
 * TRANSPORT names (common's NettyEngine, EngineLoops), serving the PROTOCOL asked (Protocols), and an r2dbc-pool of database connections when DB_PORT is set.
 */
@SpringBootApplication
public class WebFluxServer {
    static final String FRAMEWORK = "WebFlux";
    /** Thread name prefix of the server's event loops; the startup line counts them. */
    static final String LOOP_PREFIX = "httplab-webflux";
    private static final Duration SHUTDOWN_QUIET_PERIOD = Duration.ofMillis(100);

    public static void main(String[] args) {
        Launcher.run(FRAMEWORK, () -> start(args));
    }

    static void start(String[] args) {
        ServerConfig config = ServerConfig.fromEnvironment();
        DatabaseSettings database = DatabaseSettings.fromEnvironment(config);
        NettyEngine engine = NettyEngine.startable(config.transport());
        Map<String, Object> properties = springProperties(config);
        if (config.virtualThreads()) {
            BlockingPool.useVirtualThreads();
        }
        SpringApplication application = new SpringApplication(WebFluxServer.class);
        // Highest precedence: ServerConfig (PORT, BIND_ADDRESS) and DatabaseSettings (DB_*)
        // are the only sources.
        application.addInitializers(context -> {
            MutablePropertySources sources = context.getEnvironment().getPropertySources();
            sources.addFirst(new MapPropertySource("httplab", properties));
            sources.addFirst(new MapPropertySource("httplab-database", DatabaseProperties.of(database)));
        });
        application.addInitializers(context -> {
            context.getBeanFactory().registerSingleton("httplabServerConfig", config);
            context.getBeanFactory().registerSingleton("httplabNettyEngine", engine);
        });
        ConfigurableApplicationContext context = application.run(args);
        announce(config, context);
    }

    static Map<String, Object> springProperties(ServerConfig config) {
        Map<String, Object> properties = new HashMap<>(ProtocolProperties.of(config));
        properties.putAll(Map.of(
                "server.port", config.port(),
                "server.address", config.bindAddress(),
                "server.shutdown", "graceful",
                "spring.lifecycle.timeout-per-shutdown-phase", "3s"));
        return properties;
    }

    /**
     * Spring Boot has no property for the event loop count or engine: this factory replaces
     * the auto-configured one, and the embedded server runs on its loops (EngineLoops).
     */
    @Bean
    ReactorResourceFactory reactorResourceFactory(ServerConfig config, NettyEngine engine) {
        ReactorResourceFactory factory = new ReactorResourceFactory();
        factory.setUseGlobalResources(false);
        factory.setLoopResourcesSupplier(
                () -> new EngineLoops(engine, LOOP_PREFIX, config.workers()));
        factory.setShutdownQuietPeriod(SHUTDOWN_QUIET_PERIOD);
        return factory;
    }

    @Bean
    BoundServer boundServer() {
        return new BoundServer();
    }

    /**
     * The ready line, once the server is bound; its transport is the bound channel's engine,
     * its tls the engine of the SslContext the server bound with.
     */
    private static void announce(ServerConfig config, ConfigurableApplicationContext context) {
        BoundServer bound = context.getBean(BoundServer.class);
        String transport = bound.requireEngine(context.getBean(NettyEngine.class));
        String tls = Protocols.tlsEngine(bound.configuration(), config);
        LoopResources loops = context.getBean(ReactorResourceFactory.class).getLoopResources();
        int observedWorkers = EventLoopProbe.startAllAndCount(loops, LOOP_PREFIX);
        int port = ((ReactiveWebServerApplicationContext) context).getWebServer().getPort();
        StartupLine.print(FRAMEWORK, SpringBootVersion.getVersion(), transport,
                config.workers(), observedWorkers, config.bindAddress() + ":" + port,
                BlockingPool.maxThreads(context.getBean("blockingScheduler", Scheduler.class)),
                DatabaseProperties.poolSize(context, config.dbPool()), config.executor(),
                config.protocol(), tls);
    }
}
