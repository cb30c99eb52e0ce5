package dev.millpond.app;

import dev.millpond.config.MillpondConfig;
import dev.millpond.kafka.KafkaClients;
import dev.millpond.kafka.PartitionAssignment;
import dev.millpond.observability.PumpHealth;
import dev.millpond.pump.Sleeper;
import dev.millpond.pump.WriteRetry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.RetriableException;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.function.BooleanSupplier;

/**
 * Startup's first contact with Kafka (the AdminClient, then the topic's partitions), riding out a Kafka that cannot be
 * reached the way {@link SinkOpening} rides out the catalog: tried again with the write ladder's backoff until
 * MILLPOND_SINK_OUTAGE_BUDGET_S has passed, one warning per attempt naming the bootstrap servers, while the probes
 * answer alive and not ready. So a pod started during a broker outage (or before its brokers' DNS names resolve)
 * comes up with Kafka instead of exiting after 30 s and crash-looping. An unknown topic, a refused login and other
 * answers waiting cannot change still fail startup at once.
 */
final class KafkaDiscovery {

    private static final Logger LOG = Logger.getLogger(KafkaDiscovery.class);
    private static final double STOP_CHECK_SECONDS = 0.2;
    private static final Duration MIN_ATTEMPT = Duration.ofSeconds(1);
    /**
     * How long one look at the topic waits while an outage is ridden out: a broker that answers at all answers a
     * metadata request in far less, and a shorter attempt tells the operator sooner and more often that Kafka is still
     * away (recovery is not delayed either way: a pending request completes as soon as a broker answers).
     */
    private static final Duration RIDING_ATTEMPT = Duration.ofSeconds(10);

    /** The AdminClient, open, and this ordinal's partitions. */
    record Connected(Admin admin, PartitionAssignment assignment) {
    }

    private final MillpondConfig config;
    private final WriteRetry retry;
    private final PumpHealth health;
    private final Sleeper sleeper;
    private final BooleanSupplier stopRequested;

    KafkaDiscovery(MillpondConfig config, PumpHealth health, Sleeper sleeper, BooleanSupplier stopRequested) {
        this.config = config;
        // The short ladder of DuckLake's writes (1 s, 2 s), then the outage steps (4 s, 8 s, every 10 s), whatever the
        // destination: how often to knock on a broker has nothing to do with the sink's write ladder.
        this.retry = WriteRetry.duckLakeWrites(config.sinkOutageBudget());
        this.health = health;
        this.sleeper = sleeper;
        this.stopRequested = stopRequested;
    }

    /**
     * @throws KafkaStartupException  the budget passed with Kafka still unreachable; the message is the one line to log
     * @throws SinkOpening.Abandoned  a stop was requested while waiting
     */
    Connected connect() {
        Properties properties = KafkaClients.adminProperties(config.kafka());
        Admin admin = null;
        long firstFailure = 0;
        for (int attempt = 1; ; attempt++) {
            double elapsed = attempt == 1 ? 0 : (System.nanoTime() - firstFailure) / 1e9;
            try {
                if (admin == null) {
                    admin = Admin.create(properties);
                }
                PartitionAssignment assignment = PartitionAssignment.of(config.topic(),
                        PartitionAssignment.describe(admin, config.topic(), attemptTimeout(elapsed)),
                        config.replicaCount(), config.ordinal());
                if (attempt > 1) {
                    LOG.infof("Kafka answered on attempt %d, %.1fs after the first failure", attempt,
                            (System.nanoTime() - firstFailure) / 1e9);
                }
                return new Connected(admin, assignment);
            } catch (RuntimeException e) {
                if (!unreachable(e)) {
                    closeQuietly(admin);
                    throw e;
                }
                if (attempt == 1) {
                    firstFailure = System.nanoTime();
                }
                elapsed = (System.nanoTime() - firstFailure) / 1e9;
                double left = retry.outageBudget().toMillis() / 1000.0 - elapsed;
                String what = "Kafka (bootstrap servers " + config.bootstrapServers() + ")";
                if (left <= 0) {
                    closeQuietly(admin);
                    throw new KafkaStartupException(String.format(Locale.ROOT, "%s stayed unreachable at startup for"
                            + " %.1fs (%d attempts, outage budget %ds, MILLPOND_SINK_OUTAGE_BUDGET_S): %s", what,
                            elapsed, attempt, retry.outageBudget().toSeconds(), cause(e)), e);
                }
                double delay = Math.min(left, attempt < retry.ladder().attempts()
                        ? retry.ladder().delaySeconds(attempt - 1)
                        : retry.outageDelaySeconds(attempt, Optional.empty()));
                LOG.warnf("Startup: %s is unreachable (attempt %d); retrying in %.2fs, %.1fs of the outage budget"
                        + " left: %s", what, attempt, delay, left, cause(e));
                await(delay, admin);
            }
        }
    }

    /**
     * {@link #RIDING_ATTEMPT}, less when less of the budget is left (never under a second); with no budget the one
     * attempt gets the original's 30 s.
     */
    private Duration attemptTimeout(double elapsedSeconds) {
        if (retry.outageBudget().isZero()) {
            return PartitionAssignment.DESCRIBE_TIMEOUT;
        }
        Duration left = retry.outageBudget().minusMillis((long) (elapsedSeconds * 1000));
        return left.compareTo(MIN_ATTEMPT) < 0 ? MIN_ATTEMPT
                : left.compareTo(RIDING_ATTEMPT) > 0 ? RIDING_ATTEMPT
                : left;
    }

    /**
     * Unreachable: no broker answered in time (or answered with a transient error), or the bootstrap names do not
     * resolve (the client refuses to start then, before any connection).
     */
    static boolean unreachable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof RetriableException) {
                return true;
            }
            if (t instanceof ConfigException && String.valueOf(t.getMessage()).contains("resolvable bootstrap")) {
                return true;
            }
            if (!(t instanceof KafkaException)) {
                return false;
            }
        }
        return false;
    }

    private void await(double seconds, Admin admin) {
        double left = seconds;
        while (true) {
            health.waitingForKafka(); // busy, not stuck: liveness holds through the wait
            if (stopRequested.getAsBoolean()) {
                closeQuietly(admin);
                throw new SinkOpening.Abandoned("Stop requested while Kafka was unreachable at startup; nothing was"
                        + " consumed");
            }
            if (left <= 0) {
                return;
            }
            double step = Math.min(STOP_CHECK_SECONDS, left);
            sleeper.sleep(step);
            left -= step;
        }
    }

    private static String cause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root == e ? e.getMessage() : e.getMessage() + ": " + root.getMessage();
        return SinkOpening.oneLine(message);
    }

    private static void closeQuietly(Admin admin) {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
