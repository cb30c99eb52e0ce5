package dev.millpond.pump;

import dev.millpond.kafka.PartitionAssignment;
import dev.millpond.kafka.Watermarks;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The flush a previous run recorded in Kafka and may not have finished: read once at startup, before anything else
 * re-commits an offset (and so erases the metadata), and kept only if it can be replayed exactly — every partition
 * of it assigned here and still at the plan's first offset, none of its records gone to retention, none beyond the
 * log end. Otherwise one warning names the partitions and the first flush is cut as usual (at-least-once for it).
 */
public final class RecordedPlan {

    private static final Logger LOG = Logger.getLogger(RecordedPlan.class);
    private static final RecordedPlan NONE = new RecordedPlan(Map.of());

    private final Map<Integer, FlushPlan> partitions;

    private RecordedPlan(Map<Integer, FlushPlan> partitions) {
        this.partitions = Map.copyOf(partitions);
    }

    public static RecordedPlan none() {
        return NONE;
    }

    /** partition → its share of the recorded flush; empty when there is none to replay. */
    public Map<Integer, FlushPlan> partitions() {
        return partitions;
    }

    public boolean isEmpty() {
        return partitions.isEmpty();
    }

    /** A plan recorded by the version before topic ids ({@link FlushPlan#VERSION_WITHOUT_TOPIC_ID}). */
    boolean namedWithoutTopicId() {
        return !partitions.isEmpty() && partitions.values().stream().allMatch(p -> p.topicId().isEmpty());
    }

    /** Reads the committed metadata of the assigned partitions; call before any startup step commits offsets. */
    public static RecordedPlan read(Consumer<?, ?> consumer, Admin admin, PartitionAssignment assignment)
            throws Exception {
        String topic = assignment.topic();
        Set<TopicPartition> tps = assignment.partitions().stream().map(p -> new TopicPartition(topic, p))
                .collect(Collectors.toSet());
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(tps, Duration.ofSeconds(10));
        Map<Integer, FlushPlan> found = new TreeMap<>();
        committed.forEach((tp, c) -> {
            if (c != null) {
                FlushPlan.parse(tp.partition(), c.metadata())
                        .filter(plan -> plan.first() == c.offset()) // moved since: the flush was committed after all
                        .ifPresent(plan -> found.put(tp.partition(), plan));
            }
        });
        if (found.isEmpty()) {
            return NONE;
        }
        Watermarks marks = Watermarks.fetch(admin, topic, new ArrayList<>(found.keySet()), 10_000);
        return check(found, marks);
    }

    /** Keeps the plan only if it can be cut again exactly; otherwise says why, once. */
    static RecordedPlan check(Map<Integer, FlushPlan> found, Watermarks marks) {
        Set<String> flushes = found.values().stream().map(FlushPlan::flush).collect(Collectors.toSet());
        int expected = found.values().iterator().next().partitions();
        List<String> problems = new ArrayList<>();
        if (flushes.size() > 1) {
            problems.add("partitions " + found.values() + " carry " + flushes.size() + " different plans");
        } else if (found.size() != expected) {
            problems.add("the flush covered " + expected + " partitions, " + found.size() + " of them (" +
                    found.values() + ") are assigned here at the planned offset");
        }
        for (FlushPlan plan : found.values()) {
            Long low = marks.low().get(plan.partition());
            Long high = marks.high().get(plan.partition());
            if (low != null && plan.first() < low) {
                problems.add("partition " + plan.partition() + ": offsets " + plan.first() + ".." + (low - 1)
                        + " are gone to retention (log start " + low + ")");
            }
            if (high != null && plan.last() >= high) {
                problems.add("partition " + plan.partition() + ": the plan ends at " + plan.last()
                        + " but the log ends at " + high + " (topic truncated or recreated)");
            }
        }
        if (!problems.isEmpty()) {
            LOG.warnf("The flush recorded before the last stop (%s) cannot be cut again exactly: %s; flushing as usual,"
                    + " so its rows may land twice", found.values(), String.join("; ", problems));
            return NONE;
        }
        LOG.infof("Replaying the flush recorded before the last stop exactly: %s", found.values());
        return new RecordedPlan(found);
    }
}
