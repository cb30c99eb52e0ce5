package dev.millpond.includevalues;

/**
 * A poll that produced no usable array: transport error, timeout, non-2xx (a refused redirect included), or a
 * body that is not a JSON array of integers or strings. Counted on {@code poll_failures_total}; the set is kept.
 */
final class PollFailure extends Exception {
    private static final long serialVersionUID = 1L;

    PollFailure(String message) {
        super(message);
    }

    PollFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
