package httplab.server;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;

/**
 * The kind of thread running the caller, which a server reports on every /blocking answer
 * (header {@value #HEADER}) so the lab can prove where blocking work ran; and the JDK's
 * virtual-thread-per-task executor for EXECUTOR=virtual. The servers compile for Java 17,
 * where neither Thread.isVirtual nor the executor exists, so both are found at run time
 * (JEP 444: final in Java 21).
 */
public final class ThreadKind {
    public static final String HEADER = "X-Httplab-Thread";
    public static final String VIRTUAL = "virtual";
    public static final String PLATFORM = "platform";
    public static final int VIRTUAL_THREADS_SINCE = 21;
    private static final MethodHandle IS_VIRTUAL = find(Thread.class, "isVirtual",
            MethodType.methodType(boolean.class));
    private static final MethodHandle NEW_PER_TASK = findStatic(
            java.util.concurrent.Executors.class, "newVirtualThreadPerTaskExecutor",
            MethodType.methodType(ExecutorService.class));

    private ThreadKind() {
    }

    /** "virtual" or "platform": the thread running this call. */
    public static String current() {
        return isVirtual(Thread.currentThread()) ? VIRTUAL : PLATFORM;
    }

    public static boolean isVirtual(Thread thread) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invoke(thread);
        } catch (Throwable e) {
            throw new IllegalStateException("Thread.isVirtual failed", e);
        }
    }

    /** Whether this JVM has virtual threads (Java 21+). */
    public static boolean available() {
        return NEW_PER_TASK != null && Runtime.version().feature() >= VIRTUAL_THREADS_SINCE;
    }

    /** A new virtual thread for each task (Executors.newVirtualThreadPerTaskExecutor). */
    public static ExecutorService newVirtualThreadPerTaskExecutor() {
        if (!available()) {
            throw new ConfigException(needsJava21());
        }
        try {
            return (ExecutorService) NEW_PER_TASK.invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("Executors.newVirtualThreadPerTaskExecutor failed", e);
        }
    }

    static String needsJava21() {
        return "EXECUTOR=" + VIRTUAL + " needs Java " + VIRTUAL_THREADS_SINCE
                + " or later (virtual threads, JEP 444); this JVM is "
                + System.getProperty("java.version");
    }

    private static MethodHandle find(Class<?> owner, String name, MethodType type) {
        try {
            return MethodHandles.publicLookup().findVirtual(owner, name, type);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    private static MethodHandle findStatic(Class<?> owner, String name, MethodType type) {
        try {
            return MethodHandles.publicLookup().findStatic(owner, name, type);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }
}
