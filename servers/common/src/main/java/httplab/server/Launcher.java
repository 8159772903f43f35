package httplab.server;

import java.net.BindException;

/**
 * Runs a server's start-up and turns the two expected start-up faults into one clear
 * line and a non-zero exit: a bad setting (exit 2) and a port already in use (exit 1).
 */
public final class Launcher {
    public static final int EXIT_BAD_CONFIG = 2;
    public static final int EXIT_CANNOT_BIND = 1;

    /** A server's start-up; it returns once the server listens. */
    @FunctionalInterface
    public interface Startup {
        void start() throws Exception;
    }

    private Launcher() {
    }

    public static void run(String framework, Startup startup) {
        try {
            startup.start();
        } catch (ConfigException e) {
            fail(framework, e.getMessage(), EXIT_BAD_CONFIG);
        } catch (Throwable e) {
            BindException bind = findBindException(e);
            if (bind == null) {
                fail(framework, "failed to start: " + e, EXIT_CANNOT_BIND);
            }
            fail(framework, "cannot listen on " + describeEndpoint()
                    + ": address already in use or not available (" + bind.getMessage() + ")",
                    EXIT_CANNOT_BIND);
        }
    }

    static BindException findBindException(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof BindException bind) {
                return bind;
            }
            if (cause.getMessage() != null && cause.getMessage().contains("Address already in use")) {
                return new BindException(cause.getMessage());
            }
        }
        return null;
    }

    /** Start-up read the same settings before it failed to bind, so reading them again works. */
    private static String describeEndpoint() {
        try {
            return ServerConfig.fromEnvironment().endpoint();
        } catch (ConfigException e) {
            return "the configured address";
        }
    }

    private static void fail(String framework, String message, int exitCode) {
        System.err.println("httplab " + framework + ": " + message);
        System.err.flush();
        Runtime.getRuntime().halt(exitCode);
    }
}
