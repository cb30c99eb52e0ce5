package dev.millpond.pump;

import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.WriteFailure;
import org.jboss.logging.Logger;

import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Writes one flush until it lands, the retries are spent, or a stop is requested. It reads nothing but the sink's
 * {@link WriteFailure} verdict: every failed attempt is counted under the verdict's label; a permanent failure stops
 * at once; a retryable one gets the short ladder ({@link RetryPolicy}); an unavailable catalog or object store gets the
 * short ladder and then is waited out for the outage budget ({@link WriteRetry}), during which the pump is not ready.
 */
final class WriteLadder {

    private static final Logger LOG = Logger.getLogger(WriteLadder.class);

    /** Waits out an outage for the given seconds; false if a stop was requested meanwhile. */
    @FunctionalInterface
    interface OutageWait {
        boolean await(double seconds);
    }

    /** A stop was requested while the sink was unavailable: the flush was not written and nothing may be committed. */
    static final class Abandoned extends RuntimeException {
        Abandoned(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Sink sink;
    private final MillpondMetrics metrics;
    private final PumpHealth health;
    private final WriteRetry retry;
    private final Sleeper sleeper;
    private final LongSupplier nanoTime;

    WriteLadder(Sink sink, MillpondMetrics metrics, PumpHealth health, WriteRetry retry, Sleeper sleeper) {
        this(sink, metrics, health, retry, sleeper, System::nanoTime);
    }

    /** As above, measuring the outage budget on {@code nanoTime} (so a test can spend it without waiting). */
    WriteLadder(Sink sink, MillpondMetrics metrics, PumpHealth health, WriteRetry retry, Sleeper sleeper,
                LongSupplier nanoTime) {
        this.sink = sink;
        this.metrics = metrics;
        this.health = health;
        this.retry = retry;
        this.sleeper = sleeper;
        this.nanoTime = nanoTime;
    }

    /**
     * @return the rows the sink accepted
     * @throws PumpFailure when the retries are spent or the failure is permanent
     * @throws Abandoned   when {@code outageWait} reports a stop request
     */
    long write(FlushBatch batch, OutageWait outageWait) {
        health.writeStarted();
        try {
            return attempts(batch, outageWait);
        } finally {
            health.writeEnded();
        }
    }

    private long attempts(FlushBatch batch, OutageWait outageWait) {
        RetryPolicy ladder = retry.ladder();
        long firstFailure = 0;
        for (int attempt = 1; ; attempt++) {
            try {
                long written = sink.write(batch, attempt);
                if (attempt > 1) {
                    LOG.infof("Write attempt %d succeeded", attempt);
                }
                health.sinkAvailable();
                return written;
            } catch (Exception e) {
                WriteFailure verdict = sink.classify(e);
                metrics.error(verdict.errorType());
                String label = verdict.errorType().label();
                if (attempt == 1) {
                    firstFailure = nanoTime.getAsLong();
                }
                if (verdict.kind() == WriteFailure.Kind.UNAVAILABLE) {
                    health.sinkUnavailable();
                }
                if (verdict.kind() == WriteFailure.Kind.PERMANENT) {
                    throw new PumpFailure("Write failed permanently (" + label + ")", e);
                }
                if (attempt < ladder.attempts()) {
                    double delay = ladder.delaySeconds(attempt - 1, verdict.retryAfter());
                    LOG.warnf("Write attempt %d/%d failed (%s), retrying in %ss: %s", attempt, ladder.attempts(),
                            label, seconds(delay), e.getMessage());
                    sleeper.sleep(delay);
                    continue;
                }
                double elapsed = (nanoTime.getAsLong() - firstFailure) / 1e9;
                double left = retry.outageBudget().toMillis() / 1000.0 - elapsed;
                if (verdict.kind() != WriteFailure.Kind.UNAVAILABLE || left <= 0) {
                    String outage = verdict.kind() == WriteFailure.Kind.UNAVAILABLE
                            ? String.format(Locale.ROOT, "; the sink stayed unavailable for %ss (outage budget %ds)",
                            seconds(elapsed), retry.outageBudget().toSeconds())
                            : "";
                    throw new PumpFailure("Write failed after " + attempt + " attempts" + outage, e);
                }
                double delay = Math.min(retry.outageDelaySeconds(attempt, verdict.retryAfter()), left);
                LOG.warnf("Write attempt %d failed: the sink is unavailable (%s); waiting %ss, %ss of the outage budget"
                        + " left: %s", attempt, label, seconds(delay), seconds(left), e.getMessage());
                if (!outageWait.await(delay)) {
                    throw new Abandoned("Stop requested while the sink was unavailable (" + attempt + " attempts)", e);
                }
            }
        }
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.2f", s);
    }
}
