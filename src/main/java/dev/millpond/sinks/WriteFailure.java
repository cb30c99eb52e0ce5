package dev.millpond.sinks;

import dev.millpond.observability.ErrorType;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A sink's verdict on one failed write.
 *
 * @param kind       what retrying can achieve
 * @param errorType  the {@code millpond_errors_total{type}} label the attempt is counted under
 * @param retryAfter the least the dependency asked to be left alone before the next attempt (an HTTP
 *                   {@code Retry-After}), if it said
 */
public record WriteFailure(Kind kind, ErrorType errorType, Optional<Duration> retryAfter) {

    public enum Kind {
        /** Another attempt may succeed (contention, a refused statement that a re-read fixes): the short ladder. */
        RETRYABLE,
        /**
         * The catalog or the object store cannot be reached or answers "unavailable": retrying after the short
         * ladder is worth it for as long as the outage budget lasts.
         */
        UNAVAILABLE,
        /** Retrying cannot help (bad credentials, a refused schema): stop at once. */
        PERMANENT
    }

    public WriteFailure {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(errorType, "errorType");
        Objects.requireNonNull(retryAfter, "retryAfter");
    }

    public static WriteFailure retryable(ErrorType type) {
        return new WriteFailure(Kind.RETRYABLE, type, Optional.empty());
    }

    public static WriteFailure unavailable(ErrorType type) {
        return new WriteFailure(Kind.UNAVAILABLE, type, Optional.empty());
    }

    public static WriteFailure permanent(ErrorType type) {
        return new WriteFailure(Kind.PERMANENT, type, Optional.empty());
    }

    /** The same verdict with the dependency's {@code Retry-After} hint. */
    public WriteFailure withRetryAfter(Duration hint) {
        return new WriteFailure(kind, errorType, Optional.of(hint));
    }
}
