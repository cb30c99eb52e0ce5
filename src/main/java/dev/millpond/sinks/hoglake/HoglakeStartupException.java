package dev.millpond.sinks.hoglake;

/**
 * The hoglake sink cannot start: the control plane is unreachable, the catalog is missing (and HOGLAKE_DATA_PATH is
 * unset) or cannot be created. The message is the one line to log; startup fails before the pod claims readiness.
 */
public final class HoglakeStartupException extends RuntimeException {
    public HoglakeStartupException(String message) {
        super(message, null, false, false);
    }
}
