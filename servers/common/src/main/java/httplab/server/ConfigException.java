package httplab.server;

/** A setting from the environment that cannot be used; its message names the variable. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}
