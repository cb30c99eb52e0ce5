package dev.millpond.kafka;

import dev.millpond.observability.MillpondMetrics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Refreshes {@code millpond_consumer_lag} after a commit, at most once a minute (the first commit always refreshes).
 * A commit that came too soon after the last refresh is not forgotten: the loop's {@link #tick} refreshes once the
 * minute is up, so the last commit before a topic goes quiet still shows. Lag is measured to the end the consumer
 * can read: the last stable offset under {@code read_committed}.
 */
public final class LagMonitor {

    private static final Logger LOG = Logger.getLogger(LagMonitor.class);
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(60);

    private final Admin admin;
    /** Grows when partitions added to the topic are taken up ({@link PartitionRefresh}). */
    private PartitionAssignment assignment;
    private final MillpondMetrics metrics;
    private final IsolationLevel isolation;
    private final long minIntervalNanos;
    /** What each partition committed since the last refresh, waiting for the next one. */
    private final Map<Integer, Long> unrefreshed = new HashMap<>();
    private long lastRefreshNanos;
    private boolean refreshed;

    public LagMonitor(Admin admin, PartitionAssignment assignment, MillpondMetrics metrics) {
        this(admin, assignment, metrics, IsolationLevel.READ_UNCOMMITTED, DEFAULT_INTERVAL);
    }

    public LagMonitor(Admin admin, PartitionAssignment assignment, MillpondMetrics metrics, IsolationLevel isolation,
                      Duration minInterval) {
        this.admin = admin;
        this.assignment = assignment;
        this.metrics = metrics;
        this.isolation = isolation;
        this.minIntervalNanos = minInterval.toNanos();
    }

    /** From now on the lag covers these partitions (a partition added to the topic was taken up). */
    public void assigned(PartitionAssignment grown) {
        this.assignment = grown;
    }

    /** @param committedNext the offset each partition of this commit committed; others ask the consumer. */
    public void maybeRefresh(Consumer<?, ?> consumer, Map<Integer, Long> committedNext) {
        unrefreshed.putAll(committedNext);
        tick(consumer);
    }

    /** Refreshes a commit's lag that {@link #maybeRefresh} had to put off, once the interval allows. */
    public void tick(Consumer<?, ?> consumer) {
        if (unrefreshed.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        if (refreshed && now - lastRefreshNanos < minIntervalNanos) {
            return;
        }
        refreshed = true;
        lastRefreshNanos = now;
        Map<Integer, Long> committedNext = new HashMap<>(unrefreshed);
        unrefreshed.clear();
        try {
            Watermarks marks = Watermarks.fetch(admin, assignment.topic(), assignment.partitions(), 10_000, isolation);
            for (int p : assignment.partitions()) {
                Long high = marks.high().get(p);
                if (high == null) {
                    continue;
                }
                Long position = committedNext.get(p);
                if (position == null) {
                    position = consumer.position(new TopicPartition(assignment.topic(), p), Duration.ofSeconds(5));
                }
                metrics.consumerLag(p, Math.max(0, high - position));
            }
        } catch (Exception e) {
            LOG.warnf("Lag refresh failed: %s", e.toString());
        }
    }
}
