package dev.millpond.pump;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a flush is retried. First the short ladder ({@code ladder}: the original's attempts and backoff) for any
 * retryable failure; then, only while the sink reports its catalog or object store unavailable, more attempts with
 * capped exponential backoff until {@code outageBudget} has passed since the flush first failed.
 *
 * @param outageBudget MILLPOND_SINK_OUTAGE_BUDGET_S; zero means no outage mode: the short ladder is all there is
 */
public record WriteRetry(RetryPolicy ladder, Duration outageBudget) {

    /** Longest wait between two attempts during an outage, so recovery is noticed within this long. */
    public static final double OUTAGE_CAP_SECONDS = 10.0;
    public static final Duration DEFAULT_OUTAGE_BUDGET = Duration.ofSeconds(300);

    /**
     * What a write may take besides waiting out an outage: the original's liveness deadline, within which its whole
     * write with retries had to fit (hoglake's HOGLAKE_MAX_RETRY_COUNT × HOGLAKE_REQUEST_TIMEOUT_S plus the ladder's
     * sleeps is checked against the same 480 s).
     */
    public static final Duration LADDER_ALLOWANCE = Duration.ofSeconds(480);

    public static WriteRetry duckLakeWrites(Duration outageBudget) {
        return new WriteRetry(RetryPolicy.duckLakeWrites(), outageBudget);
    }

    /** @param attempts HOGLAKE_MAX_RETRY_COUNT: the whole short ladder, first attempt included */
    public static WriteRetry hoglakeWrites(int attempts, Duration outageBudget) {
        return new WriteRetry(RetryPolicy.hoglakeWrites(attempts), outageBudget);
    }

    /**
     * The longest a write may be in flight, first attempt to last: the outage budget plus {@code ladderAllowance}
     * ({@link #LADDER_ALLOWANCE} outside tests). A write in flight longer than that hangs (a dependency that stopped
     * answering mid-statement), and liveness fails so the orchestrator restarts the process.
     */
    public Duration longestWrite(Duration ladderAllowance) {
        return outageBudget.plus(ladderAllowance);
    }

    /**
     * Seconds to wait before the next attempt once the short ladder is spent: {@code base·2^(n-1)} after {@code n}
     * attempts, capped at {@value #OUTAGE_CAP_SECONDS} s and reduced by up to a quarter at random (so a fleet that
     * lost its catalog together does not come back in lockstep), but never below a Retry-After hint (itself capped).
     */
    public double outageDelaySeconds(int attemptsMade, Optional<Duration> retryAfter) {
        double d = Math.min(ladder.baseSeconds() * Math.pow(2, Math.min(attemptsMade - 1, 30)), OUTAGE_CAP_SECONDS);
        d *= 1.0 - ThreadLocalRandom.current().nextDouble(0, 0.25);
        if (retryAfter.isPresent()) {
            d = Math.max(d, Math.min(retryAfter.get().toMillis() / 1000.0, OUTAGE_CAP_SECONDS));
        }
        return d;
    }
}
