package dev.millpond.pump;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The original's two retry ladders. Writes: {@code d = min(base * 2^a, 30)}, slept as {@code min(d + U(0, d/4), 30)}
 * so a fleet refused by one event does not retry in lockstep. Offset commits: fixed 0.5 s then 1 s.
 */
public record RetryPolicy(int attempts, double baseSeconds, boolean jitter) {

    public static final double CAP_SECONDS = 30.0;

    public static RetryPolicy duckLakeWrites() {
        return new RetryPolicy(3, 1.0, true);
    }

    /** Sleeps of 1, 2, 4, 8, 16, 30, 30 … s (plus jitter, a 30 s step stays 30) between the attempts. */
    public static RetryPolicy hoglakeWrites(int attempts) {
        return new RetryPolicy(attempts, 1.0, true);
    }

    public static RetryPolicy offsetCommits() {
        return new RetryPolicy(3, 0.5, false);
    }

    /** Seconds to sleep after failed attempt {@code a} (0-based), before attempt {@code a + 1}. */
    public double delaySeconds(int a) {
        return delaySeconds(a, Optional.empty());
    }

    /** As {@link #delaySeconds(int)}, but never less than the dependency's Retry-After hint (itself capped). */
    public double delaySeconds(int a, Optional<Duration> retryAfter) {
        double d = Math.min(baseSeconds * Math.pow(2, a), CAP_SECONDS);
        if (retryAfter.isPresent()) {
            d = Math.max(d, Math.min(retryAfter.get().toMillis() / 1000.0, CAP_SECONDS));
        }
        if (!jitter) {
            return d;
        }
        return Math.min(d + ThreadLocalRandom.current().nextDouble(0, 0.25 * d), CAP_SECONDS);
    }
}
