package dev.millpond.kafka;

import dev.millpond.config.AutoOffsetReset;
import dev.millpond.observability.MillpondMetrics;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Prepares the assigned partitions before the first poll: a committed offset that retention has overtaken is
 * re-committed to the reset target (so the pod does not report offset_out_of_range and a huge lag forever), and the
 * lag and committed-offset gauges are seeded for every partition, quiet ones included.
 */
public final class StartupOffsets {

    private static final Logger LOG = Logger.getLogger(StartupOffsets.class);

    private StartupOffsets() {
    }

    /** @return the start position of each partition as far as it is known (for lag accounting). */
    public static Map<Integer, Long> recoverAndSeed(Consumer<?, ?> consumer, org.apache.kafka.clients.admin.Admin admin,
                                                    PartitionAssignment assignment, AutoOffsetReset reset,
                                                    MillpondMetrics metrics) throws Exception {
        return recoverAndSeed(consumer, admin, assignment, reset, IsolationLevel.READ_UNCOMMITTED, metrics);
    }

    /**
     * @param isolation the consumer's: under {@code read_committed} the end a lag is measured to, and the
     *                  {@code latest} reset target, is the last stable offset
     */
    public static Map<Integer, Long> recoverAndSeed(Consumer<?, ?> consumer, org.apache.kafka.clients.admin.Admin admin,
                                                    PartitionAssignment assignment, AutoOffsetReset reset,
                                                    IsolationLevel isolation, MillpondMetrics metrics)
            throws Exception {
        String topic = assignment.topic();
        Set<TopicPartition> tps = assignment.partitions().stream()
                .map(p -> new TopicPartition(topic, p)).collect(Collectors.toSet());
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(tps, Duration.ofSeconds(10));
        Watermarks marks = Watermarks.fetch(admin, topic, assignment.partitions(), 10_000, isolation);
        Map<Integer, Long> positions = new HashMap<>();
        Map<TopicPartition, OffsetAndMetadata> recovered = new HashMap<>();
        for (int p : assignment.partitions()) {
            Long low = marks.low().get(p);
            Long high = marks.high().get(p);
            if (low == null || high == null) {
                continue;
            }
            long target = reset == AutoOffsetReset.EARLIEST ? low : high;
            OffsetAndMetadata c = committed.get(new TopicPartition(topic, p));
            long position;
            if (c != null && c.offset() < low) {
                LOG.warnf("Partition %d: committed offset %d is below the log start %d; re-committing %s offset %d",
                        p, c.offset(), low, reset.kafkaValue(), target);
                recovered.put(new TopicPartition(topic, p), new OffsetAndMetadata(target));
                position = target;
            } else if (c != null && c.offset() <= high) {
                position = c.offset();
            } else {
                position = target;
            }
            positions.put(p, position);
            metrics.consumerLag(p, Math.max(0, high - position));
            metrics.lastCommittedOffset(p, position);
        }
        if (!recovered.isEmpty()) {
            consumer.commitSync(recovered);
        }
        return positions;
    }

    public static List<TopicPartition> topicPartitions(PartitionAssignment assignment) {
        return assignment.partitions().stream().map(p -> new TopicPartition(assignment.topic(), p)).toList();
    }
}
