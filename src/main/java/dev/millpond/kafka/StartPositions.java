package dev.millpond.kafka;

import dev.millpond.config.AutoOffsetReset;
import dev.millpond.observability.MillpondMetrics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Startup, after {@code assign()} and before the first poll: decides where each assigned partition resumes
 * ({@link ResumeDecision}) from Kafka's committed offsets, the lake's recorded offsets and the watermarks, seeks every
 * partition there explicitly, re-commits the positions Kafka should hear at once (the lake ahead of it, a jump over
 * offsets retention deleted), reports each jump ({@link OffsetJumps}) and seeds the lag, committed-offset and freshness
 * gauges for every partition, quiet ones included.
 *
 * <p>Every partition gets an explicit position because the pump's consumer runs with {@code auto.offset.reset=none}
 * ({@link OutOfRangeResets}): the reset policy is applied here, and while running by the pump, never silently by the
 * client.
 */
public final class StartPositions {

    private static final Logger LOG = Logger.getLogger(StartPositions.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private StartPositions() {
    }

    /**
     * @param lakeNext      partition → the next offset the lake recorded for the live topic; empty when the sink records
     *                      none (then Kafka alone decides)
     * @param recreatedFrom the topic id the lake recorded this topic's offsets under, when it is not the live topic's
     * @return the decision for every assigned partition, in partition order
     */
    public static List<ResumeDecision> apply(Consumer<?, ?> consumer, Admin admin, PartitionAssignment assignment,
                                             Map<Integer, Long> lakeNext, Optional<String> recreatedFrom,
                                             AutoOffsetReset reset, IsolationLevel isolation, MillpondMetrics metrics,
                                             OffsetJumps jumps) throws Exception {
        metrics.replaySkippedRecords(0);
        String topic = assignment.topic();
        // Every partition of the topic, not just this ordinal's: an offset elsewhere says the pipeline ran before.
        Set<TopicPartition> all = new HashSet<>();
        for (int p = 0; p < assignment.partitionCount(); p++) {
            all.add(new TopicPartition(topic, p));
        }
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(all, TIMEOUT);
        boolean otherOffsets = committed.values().stream().anyMatch(c -> c != null) || !lakeNext.isEmpty();
        ResumeDecision.TopicHistory history = new ResumeDecision.TopicHistory(recreatedFrom, otherOffsets);
        history.recreated().ifPresent(previous -> LOG.warnf("Topic '%s' was deleted and created again: the lake's"
                + " offsets were recorded for topic id %s, the topic's id is now %s; they are ignored and every"
                + " partition is read from its beginning", topic, previous, assignment.topicId()));
        Watermarks marks = Watermarks.fetch(admin, topic, assignment.partitions(), TIMEOUT.toMillis(), isolation);
        List<ResumeDecision> decisions = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> recommit = new HashMap<>();
        for (int p : assignment.partitions()) {
            TopicPartition tp = new TopicPartition(topic, p);
            OffsetAndMetadata c = committed.get(tp);
            long low = marks.low().get(p);
            long high = marks.high().get(p);
            ResumeDecision d = ResumeDecision.decide(p, c == null ? OptionalLong.empty() : OptionalLong.of(c.offset()),
                    optional(lakeNext.get(p)), low, high, reset, history);
            consumer.seek(tp, d.offset());
            if (d.recommit()) {
                recommit.put(tp, new OffsetAndMetadata(d.offset()));
            }
            jumps.track(p);
            d.jump().ifPresent(jumps::jumped);
            metrics.replaySkippedRecords(d.replaySkipped());
            metrics.consumerLag(p, Math.max(0, high - d.offset()));
            metrics.lastCommittedOffset(p, d.offset());
            metrics.freshness().takenUp(p, high > d.offset());
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
