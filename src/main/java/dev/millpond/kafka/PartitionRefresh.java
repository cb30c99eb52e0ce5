package dev.millpond.kafka;

import dev.millpond.observability.MillpondMetrics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.LongSupplier;

/**
 * Partitions added to the topic while the pump runs: every {@code MILLPOND_PARTITION_REFRESH_INTERVAL_S} the topic is
 * described again, and the new partitions this ordinal owns under the static rule ({@code p % REPLICA_COUNT ==
 * ordinal}) are assigned, from their beginning whatever the reset policy (every record in a partition that appeared
 * while the pump ran is newer than the pump), with their lag, committed-offset, skipped-offset and freshness series at
 * once. The same description shows a topic deleted and created again under the same name (a new topic id): the pump
 * stops ({@link TopicRecreatedException}).
 *
 * <p>Owned by the pump thread, which owns the consumer: {@link #tick} sends the AdminClient's request without waiting
 * for it and applies the answer on a later iteration, so a slow broker never holds the loop up.
 */
public final class PartitionRefresh {

    private static final Logger LOG = Logger.getLogger(PartitionRefresh.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** After a failed take-up (a new partition without a leader yet), the next try comes this soon at the latest. */
    private static final long RETRY_NANOS = Duration.ofSeconds(5).toNanos();

    private final Admin admin;
    private final int replicaCount;
    private final int ordinal;
    private final long intervalNanos;
    private final LagMonitor lag;
    private final MillpondMetrics metrics;
    private final OffsetJumps jumps;
    private final LongSupplier nanoTime;
    private PartitionAssignment current;
    private KafkaFuture<Map<String, TopicDescription>> pending;
    private long nextNanos;

    /** @param interval zero: the partition count read at startup is never read again (the original's behaviour) */
    public PartitionRefresh(Admin admin, PartitionAssignment startup, int replicaCount, int ordinal, Duration interval,
                            LagMonitor lag, MillpondMetrics metrics, OffsetJumps jumps) {
        this(admin, startup, replicaCount, ordinal, interval, lag, metrics, jumps, System::nanoTime);
    }

    PartitionRefresh(Admin admin, PartitionAssignment startup, int replicaCount, int ordinal, Duration interval,
                     LagMonitor lag, MillpondMetrics metrics, OffsetJumps jumps, LongSupplier nanoTime) {
        this.admin = admin;
        this.current = startup;
        this.replicaCount = replicaCount;
        this.ordinal = ordinal;
        this.intervalNanos = interval.toNanos();
        this.lag = lag;
        this.metrics = metrics;
        this.jumps = jumps;
        this.nanoTime = nanoTime;
        this.nextNanos = nanoTime.getAsLong() + intervalNanos;
    }

    /** The partitions assigned now. */
    public PartitionAssignment current() {
        return current;
    }

    /**
     * On the pump thread, once per iteration: sends the request when it is due, and applies its answer once it came.
     *
     * @throws TopicRecreatedException the topic now has another id
     */
    public void tick(Consumer<?, ?> consumer) {
        if (intervalNanos == 0) {
            return;
        }
        long now = nanoTime.getAsLong();
        if (pending == null) {
            if (now - nextNanos >= 0) {
                pending = admin.describeTopics(Set.of(current.topic()),
                        new DescribeTopicsOptions().timeoutMs((int) TIMEOUT.toMillis())).allTopicNames();
            }
            return;
        }
        if (!pending.isDone()) {
            return;
        }
        KafkaFuture<Map<String, TopicDescription>> answer = pending;
        pending = null;
        nextNanos = now + intervalNanos;
        PartitionAssignment.Described described;
        try {
            described = PartitionAssignment.Described.of(answer.get().get(current.topic()));
        } catch (ExecutionException e) {
            LOG.warnf("Cannot read the partition count of topic '%s' (read every %ds); trying again then: %s",
                    current.topic(), intervalNanos / 1_000_000_000L, e.getCause().toString());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        apply(consumer, described);
    }

    void apply(Consumer<?, ?> consumer, PartitionAssignment.Described described) {
        String topic = current.topic();
        if (!described.topicId().equals(current.topicId())) {
            throw new TopicRecreatedException(topic, current.topicId(), described.topicId());
        }
        if (described.partitionCount() <= current.partitionCount()) {
            return; // Kafka never removes partitions
        }
        List<Integer> mine = PartitionAssignment.partitionsFor(described.partitionCount(), replicaCount, ordinal);
        List<Integer> added = new ArrayList<>(mine);
        added.removeAll(current.partitions());
        PartitionAssignment grown = new PartitionAssignment(topic, current.topicId(), described.partitionCount(), mine);
        if (added.isEmpty()) {
            LOG.infof("Topic '%s' has %d partitions now (%d before); none of the new ones is ordinal %d's", topic,
                    grown.partitionCount(), current.partitionCount(), ordinal);
            current = grown;
            return;
        }
        List<TopicPartition> newPartitions = added.stream().map(p -> new TopicPartition(topic, p)).toList();
        Map<TopicPartition, Long> begin;
        Map<TopicPartition, Long> end;
        try {
            begin = consumer.beginningOffsets(newPartitions, TIMEOUT);
            end = consumer.endOffsets(newPartitions, TIMEOUT);
        } catch (KafkaException e) {
            LOG.warnf("Topic '%s' has %d partitions now; partitions %s cannot be taken up yet: %s", topic,
                    grown.partitionCount(), added, e.toString());
            nextNanos = nanoTime.getAsLong() + Math.min(intervalNanos, RETRY_NANOS);
            return;
        }
        consumer.assign(grown.topicPartitions());
        for (TopicPartition tp : newPartitions) {
            long low = begin.get(tp);
            consumer.seek(tp, low);
            jumps.track(tp.partition());
            metrics.consumerLag(tp.partition(), Math.max(0, end.get(tp) - low));
            metrics.lastCommittedOffset(tp.partition(), low);
            metrics.freshness().takenUp(tp.partition(), end.get(tp) > low);
        }
        lag.assigned(grown);
        LOG.infof("Topic '%s' has %d partitions now (%d before): taking up partitions %s from their beginning, since"
                + " every record in them is newer than this pod", topic, grown.partitionCount(),
                current.partitionCount(), added);
        current = grown;
    }
}
