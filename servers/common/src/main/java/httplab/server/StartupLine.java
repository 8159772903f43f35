package httplab.server;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The one line each server prints when it is ready. The harness and the conformance
 * test read it, so its shape is fixed:
 * {@code httplab-ready framework=Netty version=4.2.18.Final transport=epoll workers=2
 * observed_workers=2 bind=127.0.0.1:8080 blocking_pool=4 db_pool=10 executor=pool protocol=h2 tls=jdk
 * java=25.0.1 gc=G1
 * heap_max_mb=6144 vendor=Eclipse Adoptium}.
 * observed_workers is counted from the running server (live threads or the pool's own
 * report), so it proves the setting took effect rather than repeating it. blocking_pool is
 * the most threads the pool that /blocking runs on may have, as the framework reports it
 * (0 for a server without that endpoint); pools that start threads on demand are counted
 * by the harness while the workload runs. db_pool is the size of the database connection
 * pool the server configured (0 without one). executor is where blocking work runs (pool or
 * virtual; each /blocking answer proves it, header ThreadKind.HEADER). protocol is the one the
 * server serves (the lab proves it on the wire) and tls the TLS engine its framework runs,
 * read from the framework after start: TLS_JDK (the JDK's SSLEngine), TLS_OPENSSL (OpenSSL or
 * BoringSSL through netty-tcnative) or TLS_NONE (no TLS). The rest is the runtime as the JVM itself
 * reports it, so a run can prove which JDK it measured: java.version, the garbage collector
 * in use (named from its MXBeans), the most heap it may take, and java.vendor, last because
 * it may hold spaces.
 */
public final class StartupLine {
    public static final String TLS_NONE = "none";
    public static final String TLS_JDK = "jdk";
    public static final String TLS_OPENSSL = "openssl";

    private StartupLine() {
    }

    public static String format(String framework, String version, String transport,
                                int workers, int observedWorkers, String bind, int blockingPool,
                                int dbPool, String executor, String protocol, String tls) {
        return "httplab-ready framework=" + framework
                + " version=" + version
                + " transport=" + transport
                + " workers=" + workers
                + " observed_workers=" + observedWorkers
                + " bind=" + bind
                + " blocking_pool=" + blockingPool
                + " db_pool=" + dbPool
                + " executor=" + executor
                + " protocol=" + protocol
                + " tls=" + tls
                + " java=" + System.getProperty("java.version")
                + " gc=" + collector()
                + " heap_max_mb=" + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                + " vendor=" + System.getProperty("java.vendor");
    }

    /** The collector's usual name, from the names its MXBeans carry (G1 Young Generation,
     * PS Scavenge, Copy...); the first bean's name, spaces as _, for any other. */
    static String collector() {
        List<String> names = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).toList();
        for (String[] known : COLLECTORS) {
            if (names.stream().anyMatch(name -> name.startsWith(known[0]))) {
                return known[1];
            }
        }
        return names.isEmpty() ? "none" : names.get(0).replace(' ', '_');
    }

    private static final String[][] COLLECTORS = {
        {"G1 ", "G1"}, {"ZGC", "ZGC"}, {"Shenandoah", "Shenandoah"}, {"PS ", "Parallel"},
        {"Copy", "Serial"}, {"MarkSweepCompact", "Serial"}, {"Epsilon", "Epsilon"},
    };

    public static void print(String framework, String version, String transport,
                             int workers, int observedWorkers, String bind, int blockingPool,
                             int dbPool, String executor, String protocol, String tls) {
        System.out.println(format(framework, version, transport, workers, observedWorkers, bind,
                blockingPool, dbPool, executor, protocol, tls));
        System.out.flush();
    }

    /** Counts live threads whose name starts with the prefix: how pools prove their size. */
    public static int countLiveThreads(String namePrefix) {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .filter(thread -> thread.getName().startsWith(namePrefix))
                .count();
    }
}
