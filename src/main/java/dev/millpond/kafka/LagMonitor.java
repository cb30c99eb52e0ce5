package dev.millpond.kafka;

import dev.millpond.observability.MillpondMetrics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.Map;

/** Refreshes {@code millpond_consumer_lag} after a flush, at most once a minute (the first flush always refreshes). */
public final class LagMonitor {

    private static final Logger LOG = Logger.getLogger(LagMonitor.class);
    private static final long MIN_INTERVAL_NANOS = Duration.ofSeconds(60).toNanos();

    private final Admin admin;
    private final PartitionAssignment assignment;
    private final MillpondMetrics metrics;
    private long lastRefreshNanos;
    private boolean refreshed;

    public LagMonitor(Admin admin, PartitionAssignment assignment, MillpondMetrics metrics) {
        this.admin = admin;
        this.assignment = assignment;
        this.metrics = metrics;
    }

    /** @param flushedNext next offset of each partition this flush committed; others ask the consumer. */
    public void maybeRefresh(Consumer<?, ?> consumer, Map<Integer, Long> flushedNext) {
        long now = System.nanoTime();
        if (refreshed && now - lastRefreshNanos < MIN_INTERVAL_NANOS) {
            return;
        }
        refreshed = true;
        lastRefreshNanos = now;
        try {
            Watermarks marks = Watermarks.fetch(admin, assignment.topic(), assignment.partitions(), 10_000);
            for (int p : assignment.partitions()) {
                Long high = marks.high().get(p);
                if (high == null) {
                    continue;
                }
                Long position = flushedNext.get(p);
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
