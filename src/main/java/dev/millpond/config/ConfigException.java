package dev.millpond.config;

/**
 * Bad configuration found at startup. The message always names the environment variable at fault and
 * never contains a secret value.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
