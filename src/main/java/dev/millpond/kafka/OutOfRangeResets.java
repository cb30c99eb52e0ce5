package dev.millpond.kafka;

import dev.millpond.config.AutoOffsetReset;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.LogTruncationException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The reset policy, applied by the pump instead of by the Kafka client. The pump's consumer runs with
 * {@code auto.offset.reset=none} ({@link #CONSUMER_POLICY}), so a fetch whose offset is no longer in the log raises
 * {@link OffsetOutOfRangeException} naming the exact offset it wanted, and this class moves the partition to where
 * {@code KAFKA_AUTO_OFFSET_RESET} says and reports the jump ({@link OffsetJumps}).
 *
 * <p>Why catch the reset rather than notice it afterwards (comparing the position after a poll with the offset after
 * the last record handled): a position legitimately moves past offsets that hold no record the consumer returns —
 * transaction markers, aborted transactions under {@code read_committed}, offsets compaction removed — so a jump seen
 * afterwards cannot be told from those, and the client's own reset happens inside {@code poll()}, between fetches, so
 * the offset it reset from is gone by then. The exception carries that offset, and nothing moves until the pump
 * decides.
 */
public final class OutOfRangeResets {

    /** What the pump's consumer is configured with: the client never resets a position by itself. */
    public static final String CONSUMER_POLICY = "none";

    private static final Logger LOG = Logger.getLogger(OutOfRangeResets.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Admin admin;
    private final String topic;
    private final String topicId;
    private final AutoOffsetReset reset;
    private final OffsetJumps jumps;

    public OutOfRangeResets(Admin admin, PartitionAssignment assignment, AutoOffsetReset reset, OffsetJumps jumps) {
        this.admin = admin;
        this.topic = assignment.topic();
        this.topicId = assignment.topicId();
        this.reset = reset;
        this.jumps = jumps;
    }

    /**
     * Moves every partition the exception names; on the pump thread.
     *
     * @return partition → where it resumes, for each partition that jumped forward over offsets never read: the next
     *         offset commit covers the jump, so a restart does not report it again
     * @throws TopicRecreatedException the log is shorter than the position because the topic is a new one
     */
    public Map<Integer, Long> reset(Consumer<?, ?> consumer, OffsetOutOfRangeException e) {
        Map<Integer, Long> jumped = new TreeMap<>();
        Map<TopicPartition, Long> wanted = new HashMap<>(e.offsetOutOfRangePartitions());
        if (e instanceof LogTruncationException truncated) {
            truncated.divergentOffsets().forEach((tp, divergent) -> {
                resumeAfterTruncation(consumer, tp, divergent);
                wanted.remove(tp);
            });
        }
        if (wanted.isEmpty()) {
            return jumped;
        }
        Map<TopicPartition, Long> begin = consumer.beginningOffsets(wanted.keySet(), TIMEOUT);
        Map<TopicPartition, Long> end = consumer.endOffsets(wanted.keySet(), TIMEOUT);
        for (Map.Entry<TopicPartition, Long> w : wanted.entrySet()) {
            TopicPartition tp = w.getKey();
            long next = w.getValue();
            long low = begin.get(tp);
            long high = end.get(tp);
            if (next < low) {
                long target = reset == AutoOffsetReset.EARLIEST ? low : high;
                consumer.seek(tp, target);
                jumps.jumped(new OffsetJump(tp.partition(), next, low, target, reset));
                jumped.put(tp.partition(), target);
            } else if (next > high) {
                if (!sameTopic()) {
                    return jumped; // the position stays; the next poll asks again
                }
                consumer.seek(tp, high);
                LOG.warnf("Partition %d: offset %d is beyond the log end %d: the log was cut short (a leader without"
                        + " the last records took over); resuming at its end", tp.partition(), next, high);
            } else {
                consumer.seek(tp, next); // back in range by now
            }
        }
        return jumped;
    }

    private void resumeAfterTruncation(Consumer<?, ?> consumer, TopicPartition tp, OffsetAndMetadata divergent) {
        long at = divergent.offset();
        consumer.seek(tp, at);
        LOG.warnf("Partition %d: the log was truncated below the position (a leader without the last records took"
                + " over); resuming at %d, where it diverges", tp.partition(), at);
    }

    /**
     * Whether the topic is still the one the pump started on. A log shorter than the position is either a log cut
     * short or a topic deleted and created again; only the topic id tells them apart.
     *
     * @throws TopicRecreatedException it is another topic now
     */
    private boolean sameTopic() {
        String now;
        try {
            now = PartitionAssignment.describe(admin, topic, TIMEOUT).topicId();
        } catch (KafkaException | IllegalStateException e) {
            LOG.warnf("A position is beyond the log end of topic '%s', and whether the topic was recreated cannot be"
                    + " told yet: %s", topic, e.getMessage());
            return false;
        }
        if (!now.equals(topicId)) {
            throw new TopicRecreatedException(topic, topicId, now);
        }
        return true;
    }
}
