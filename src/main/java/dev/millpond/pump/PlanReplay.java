package dev.millpond.pump;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Cuts the first flush after a restart exactly at a {@link RecordedPlan}: partitions outside the plan are paused,
 * each planned partition is paused once it reached its last planned offset, and records past it are held (not
 * handled) until the planned flush is written; the flush is due as soon as every planned partition reached its end,
 * whatever size and time say. If that does not happen within {@code bound}, one warning names the partitions still
 * short and everything resumes as usual.
 */
final class PlanReplay {

    private static final Logger LOG = Logger.getLogger(PlanReplay.class);

    /** What the loop does after handling a poll. */
    enum Step {
        /** Not replaying: the size and time triggers decide. */
        NORMAL,
        /** The plan is not complete: do not flush. */
        HOLD,
        /** Every planned partition reached its end: flush now. */
        FLUSH
    }

    private final Consumer<?, ?> consumer;
    private final String topic;
    private final Map<Integer, FlushPlan> plan;
    private final LongSupplier nanoTime;
    private final long deadline;
    private final Set<Integer> reached = new TreeSet<>();
    private final Set<TopicPartition> paused;
    private final List<ConsumerRecord<byte[], byte[]>> held = new ArrayList<>();
    private boolean active;

    /** Pauses the assigned partitions outside the plan; call after {@code assign()} and before the first poll. */
    PlanReplay(Consumer<?, ?> consumer, String topic, RecordedPlan recorded, Duration bound, LongSupplier nanoTime) {
        this.consumer = consumer;
        this.topic = topic;
        this.plan = recorded.partitions();
        this.nanoTime = nanoTime;
        this.deadline = nanoTime.getAsLong() + bound.toNanos();
        this.active = !plan.isEmpty();
        this.paused = active ? consumer.assignment().stream().filter(tp -> !plan.containsKey(tp.partition()))
                .collect(Collectors.toCollection(java.util.HashSet::new)) : new java.util.HashSet<>();
        consumer.pause(paused);
    }

    /** Whether the planned flush is still being collected: a partial flush now would be a different publication. */
    boolean incomplete() {
        return active;
    }

    /**
     * The records of this poll that belong to the flush being collected; records past a partition's plan are held
     * and handed back, in order, ahead of the first poll after the plan is done.
     */
    List<ConsumerRecord<byte[], byte[]>> admit(List<ConsumerRecord<byte[], byte[]>> polled) {
        if (!active) {
            if (held.isEmpty()) {
                return polled;
            }
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>(held);
            out.addAll(polled);
            held.clear();
            return out;
        }
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>(polled.size());
        for (ConsumerRecord<byte[], byte[]> r : polled) {
            FlushPlan p = plan.get(r.partition());
            if (p != null && r.offset() <= p.last()) {
                out.add(r);
                if (r.offset() == p.last()) {
                    reach(r.partition());
                }
            } else {
                held.add(r);
                if (p != null) {
                    reach(r.partition()); // past the end without its last record: cut here all the same
                }
            }
        }
        return out;
    }

    private void reach(int partition) {
        if (reached.add(partition)) {
            TopicPartition tp = new TopicPartition(topic, partition);
            consumer.pause(Set.of(tp));
            paused.add(tp);
        }
    }

    Step step() {
        if (!active) {
            return Step.NORMAL;
        }
        if (reached.containsAll(plan.keySet())) {
            finish();
            return Step.FLUSH;
        }
        if (nanoTime.getAsLong() - deadline > 0) {
            Set<Integer> short_ = new TreeSet<>(plan.keySet());
            short_.removeAll(reached);
            LOG.warnf("The recorded flush %s could not be collected again: partitions %s did not reach their planned"
                    + " end; flushing as usual, so its rows may land twice", plan.values(), short_);
            finish();
            return Step.NORMAL;
        }
        return Step.HOLD;
    }

    private void finish() {
        active = false;
        consumer.resume(paused);
        paused.clear();
    }
}
