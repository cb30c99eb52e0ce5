package dev.millpond.pump;

/** A failure the loop cannot survive (write or commit retries exhausted): the process exits non-zero. */
public final class PumpFailure extends RuntimeException {
    public PumpFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
