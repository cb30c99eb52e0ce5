package dev.millpond.includevalues;

/** Authoritative mode could not get a first successful poll in time: the pod must not start on stale pins. */
public final class IncludeValuesStartupException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    IncludeValuesStartupException(String message) {
        super(message);
    }
}
