package dev.millpond.app;

import dev.millpond.memory.MemoryBudget;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.pump.Sleeper;
import dev.millpond.pump.WriteRetry;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.StartupOutage;
import org.apache.arrow.memory.BufferAllocator;
import org.jboss.logging.Logger;

import java.util.Locale;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Opens the sink at startup the way a write rides out an outage: a catalog or object store that cannot be reached
 * (the sink's verdict) is tried again with the write ladder's backoff until MILLPOND_SINK_OUTAGE_BUDGET_S has passed,
 * one warning per attempt naming what was unreachable, while the probes answer alive and not ready. So a pod started
 * during a catalog failover comes up when the catalog does, instead of crash-looping. A failure that waiting cannot
 * fix (credentials, a missing database or bucket, an incompatible catalog) still fails startup at once.
 */
final class SinkOpening {

    private static final Logger LOG = Logger.getLogger(SinkOpening.class);
    /** How often a wait between attempts looks for a stop request. */
    private static final double STOP_CHECK_SECONDS = 0.2;

    /** A stop was requested while the sink was still being waited for: nothing was consumed. */
    static final class Abandoned extends RuntimeException {
        Abandoned(String message) {
            super(message, null, false, false);
        }
    }

    private final SinkFactory factory;
    private final WriteRetry retry;
    private final PumpHealth health;
    private final Sleeper sleeper;
    private final BooleanSupplier stopRequested;
    private final LongSupplier nanoTime;

    SinkOpening(SinkFactory factory, PumpHealth health, Sleeper sleeper, BooleanSupplier stopRequested) {
        this(factory, health, sleeper, stopRequested, System::nanoTime);
    }

    /** As above, measuring the outage budget on {@code nanoTime} (so a test can spend it without waiting). */
    SinkOpening(SinkFactory factory, PumpHealth health, Sleeper sleeper, BooleanSupplier stopRequested,
                LongSupplier nanoTime) {
        this.factory = factory;
        this.retry = factory.writeRetry();
        this.health = health;
        this.sleeper = sleeper;
        this.stopRequested = stopRequested;
        this.nanoTime = nanoTime;
    }

    /**
     * @throws SinkStartupException the budget passed with the dependency still unreachable, or the sink refused to
     *                              open with a DuckDB error; the message is the one line to log
     * @throws Abandoned            a stop was requested while waiting
     */
    Sink open(MillpondMetrics metrics, BufferAllocator memory, MemoryBudget budget) throws Exception {
        long firstFailure = 0;
        for (int attempt = 1; ; attempt++) {
            try {
                Sink sink = factory.open(metrics, memory, budget);
                if (attempt > 1) {
                    LOG.infof("The sink opened on attempt %d, %.1fs after the first failure", attempt,
                            (nanoTime.getAsLong() - firstFailure) / 1e9);
                }
                return sink;
            } catch (Exception e) {
                if (attempt == 1) {
                    firstFailure = nanoTime.getAsLong();
                }
                Optional<StartupOutage> outage = factory.outage(e);
                if (outage.isEmpty()) {
                    throw factory.refusal(e);
                }
                String what = factory.unreachable(outage.get());
                double elapsed = (nanoTime.getAsLong() - firstFailure) / 1e9;
                double left = retry.outageBudget().toMillis() / 1000.0 - elapsed;
                if (left <= 0) {
                    throw new SinkStartupException(String.format(Locale.ROOT, "%s stayed unreachable at startup for"
                            + " %.1fs (%d attempts, outage budget %ds, MILLPOND_SINK_OUTAGE_BUDGET_S): %s", what,
                            elapsed, attempt, retry.outageBudget().toSeconds(), oneLine(e.getMessage())), e);
                }
                double delay = Math.min(left, attempt < retry.ladder().attempts()
                        ? retry.ladder().delaySeconds(attempt - 1)
                        : retry.outageDelaySeconds(attempt, Optional.empty()));
                LOG.warnf("Startup: %s is unreachable (attempt %d); retrying in %.2fs, %.1fs of the outage budget"
                        + " left: %s", what, attempt, delay, left, oneLine(e.getMessage()));
                await(delay);
            }
        }
    }

    /**
     * Sleeps in short steps, keeping the liveness probe fed (the pump thread is busy, not stuck). The steps are
     * counted on the sleeper, not the clock, so a test's sleeper that records instead of sleeping ends the wait at once.
     */
    private void await(double seconds) {
        double left = seconds;
        while (true) {
            health.waitingForSink();
            if (stopRequested.getAsBoolean()) {
                throw new Abandoned("Stop requested while the sink was unreachable at startup; nothing was consumed");
            }
            if (left <= 0) {
                return;
            }
            double step = Math.min(STOP_CHECK_SECONDS, left);
            sleeper.sleep(step);
            left -= step;
        }
    }

    /** DuckDB and libpq messages span lines; the log gets one. */
    static String oneLine(String message) {
        return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
