package dev.millpond.sinks.hoglake;

/**
 * The hoglake sink cannot start: the control plane is unreachable, the catalog is missing (and HOGLAKE_DATA_PATH is
 * unset) or cannot be created. The message is the one line to log; startup fails before the pod claims readiness.
 */
public final class HoglakeStartupException extends RuntimeException {

    private final boolean unavailable;

    public HoglakeStartupException(String message) {
        this(message, false);
    }

    /** @param unavailable the control plane could not be reached or answered 5xx: an outage, not configuration */
    public HoglakeStartupException(String message, boolean unavailable) {
        super(message, null, false, false);
        this.unavailable = unavailable;
    }

    /** Whether the control plane could not be reached or answered "unavailable", so waiting may help. */
    public boolean unavailable() {
        return unavailable;
    }
}
