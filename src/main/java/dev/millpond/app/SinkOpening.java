package dev.millpond.app;

import dev.millpond.config.Destination;
import dev.millpond.config.MillpondConfig;
import dev.millpond.memory.MemoryBudget;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.pump.Sleeper;
import dev.millpond.pump.WriteRetry;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.StartupOutage;
import dev.millpond.sinks.ducklake.IncompatibleCatalogException;
import org.apache.arrow.memory.BufferAllocator;
import org.jboss.logging.Logger;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BooleanSupplier;

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

    SinkOpening(SinkFactory factory, WriteRetry retry, PumpHealth health, Sleeper sleeper,
                BooleanSupplier stopRequested) {
        this.factory = factory;
        this.retry = retry;
        this.health = health;
        this.sleeper = sleeper;
        this.stopRequested = stopRequested;
    }

    /**
     * @throws SinkStartupException the budget passed with the dependency still unreachable, or the sink refused to
     *                              open with a DuckDB error; the message is the one line to log
     * @throws Abandoned            a stop was requested while waiting
     */
    Sink open(MillpondConfig config, MillpondMetrics metrics, BufferAllocator memory, MemoryBudget budget)
            throws Exception {
        long firstFailure = 0;
        for (int attempt = 1; ; attempt++) {
            try {
                Sink sink = factory.open(config, metrics, memory, budget);
                if (attempt > 1) {
                    LOG.infof("The sink opened on attempt %d, %.1fs after the first failure", attempt,
                            (System.nanoTime() - firstFailure) / 1e9);
                }
                return sink;
            } catch (Exception e) {
                if (attempt == 1) {
                    firstFailure = System.nanoTime();
                }
                Optional<StartupOutage> outage = factory.outage(config, e);
                if (outage.isEmpty()) {
                    throw e instanceof SQLException && !(e instanceof IncompatibleCatalogException)
                            ? new SinkStartupException("Cannot open the "
                            + destinationName(config) + " sink: " + oneLine(e.getMessage()), e) : e;
                }
                String what = describe(config, outage.get());
                double elapsed = (System.nanoTime() - firstFailure) / 1e9;
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

    /** Sleeps in short steps, keeping the liveness probe fed (the pump thread is busy, not stuck). */
    private void await(double seconds) {
        long until = System.nanoTime() + (long) (seconds * 1e9);
        while (true) {
            health.waitingForSink();
            if (stopRequested.getAsBoolean()) {
                throw new Abandoned("Stop requested while the sink was unreachable at startup; nothing was consumed");
            }
            long left = until - System.nanoTime();
            if (left <= 0) {
                return;
            }
            sleeper.sleep(Math.min(STOP_CHECK_SECONDS, left / 1e9));
        }
    }

    /** What could not be reached, by name and address; never a credential. */
    static String describe(MillpondConfig config, StartupOutage outage) {
        if (config.destination() == Destination.DUCKLAKE) {
            return outage == StartupOutage.CATALOG
                    ? "the DuckLake catalog (Postgres at " + config.ducklake().catalog().host() + ":"
                            + config.ducklake().catalog().port() + ", database " + config.ducklake().catalog().database()
                            + ")"
                    : "the object store (" + config.ducklake().s3().endpoint().orElse("S3") + ", data path "
                            + config.ducklake().dataPath() + ")";
        }
        return outage == StartupOutage.CATALOG
                ? "the hoglake control plane (" + config.hoglake().url() + ")"
                : "the object store (" + config.hoglake().s3().endpoint().orElse("S3") + ")";
    }

    private static String destinationName(MillpondConfig config) {
        return config.destination() == Destination.DUCKLAKE ? "DuckLake" : "hoglake";
    }

    /** DuckDB and libpq messages span lines; the log gets one. */
    static String oneLine(String message) {
        return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    static WriteRetry retryFor(MillpondConfig config) {
        Duration budget = config.sinkOutageBudget();
        return config.destination() == Destination.HOGLAKE
                ? WriteRetry.hoglakeWrites(config.hoglake().maxRetryCount(), budget)
                : WriteRetry.duckLakeWrites(budget);
    }
}
