package dev.millpond.kafka;

import dev.millpond.config.AutoOffsetReset;
import dev.millpond.observability.MillpondMetrics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Startup, after {@code assign()}: seeks each partition whose lake-recorded offset is ahead of Kafka's (the pod died
 * between the lake commit and the Kafka commit), so those records are not written twice, and re-commits the lake
 * position to Kafka straight away so lag gauges and {@code __consumer_offsets} tools agree with the lake.
 */
public final class ResumePositions {

    private static final Logger LOG = Logger.getLogger(ResumePositions.class);

    private ResumePositions() {
    }

    /**
     * @param kafkaStarts what {@link StartupOffsets#recoverAndSeed} returned: the start position per partition
     * @param lake        partition → next offset recorded in the lake (empty when lake offsets are off)
     * @return the decision for every assigned partition, in partition order
     */
    public static List<ResumeDecision> apply(Consumer<?, ?> consumer, Admin admin, PartitionAssignment assignment,
                                             Map<Integer, Long> kafkaStarts, Map<Integer, Long> lake,
                                             AutoOffsetReset reset, MillpondMetrics metrics) throws Exception {
        metrics.replaySkippedRecords(0);
        String topic = assignment.topic();
        List<TopicPartition> tps = StartupOffsets.topicPartitions(assignment);
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(tps), Duration.ofSeconds(10));
        Watermarks marks = lake.isEmpty() ? new Watermarks(Map.of(), Map.of())
                : Watermarks.fetch(admin, topic, assignment.partitions(), 10_000);
        List<ResumeDecision> decisions = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> recommit = new HashMap<>();
        for (TopicPartition tp : tps) {
            int p = tp.partition();
            OffsetAndMetadata c = committed.get(tp);
            ResumeDecision d = ResumeDecision.decide(p, c == null ? OptionalLong.empty() : OptionalLong.of(c.offset()),
                    optional(kafkaStarts.get(p)), optional(lake.get(p)), optional(marks.high().get(p)), reset);
            if (d.seekToLake()) {
                long at = d.offset().getAsLong();
                consumer.seek(tp, at);
                recommit.put(tp, new OffsetAndMetadata(at));
                metrics.lastCommittedOffset(p, at);
                metrics.replaySkippedRecords(d.skipped());
            }
            LOG.info(d.logLine());
            decisions.add(d);
        }
        if (!recommit.isEmpty()) {
            consumer.commitSync(recommit);
        }
        return decisions;
    }

    private static OptionalLong optional(Long value) {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
