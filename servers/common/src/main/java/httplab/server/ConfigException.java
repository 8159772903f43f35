package httplab.server;

/** A setting from the environment that cannot be used; its message names the variable. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    /**
     * A framework's reason, as a refusal's one line gives it: the cause's text with its line
     * breaks folded, or "no cause given" for none.
     */
    public static String reasonOf(Throwable cause) {
        return cause == null ? "no cause given" : cause.toString().replaceAll("\\s+", " ");
    }
}
