package dev.millpond.pump;

import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.OffsetRange;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Reproducible flush boundaries, for a sink that recognises a repeated flush by its offset ranges but records no
 * offsets itself. Before a flush is first written, each of its partitions commits its first offset (so nothing moves)
 * with the plan in the metadata; the commit after the write clears it. After a crash in between, the next run reads
 * the plan ({@link RecordedPlan}) and cuts its first flush exactly there ({@link PlanReplay}), so the rebuilt flush
 * has the same ranges and the sink publishes it at most once. {@link #off()} does none of this: no extra commits.
 */
public final class FlushPlans {

    private static final Logger LOG = Logger.getLogger(FlushPlans.class);
    private static final FlushPlans OFF = new FlushPlans(null, null, false);

    private final OffsetCommitter committer;
    private final PlanReplay replay;
    private final boolean replaysPlanWithoutTopicId;

    private FlushPlans(OffsetCommitter committer, PlanReplay replay, boolean replaysPlanWithoutTopicId) {
        this.committer = committer;
        this.replay = replay;
        this.replaysPlanWithoutTopicId = replaysPlanWithoutTopicId;
    }

    public static FlushPlans off() {
        return OFF;
    }

    /**
     * Records plans from now on and replays {@code recorded} first. Call after {@code assign()}, before the first
     * poll: the partitions outside the recorded plan are paused until it is written.
     *
     * @param flushIntervalMs FLUSH_INTERVAL_MS: the replay waits at most {@link #replayBound} for the planned records
     */
    public static FlushPlans on(Consumer<?, ?> consumer, String topic, RecordedPlan recorded, long flushIntervalMs,
                                MillpondMetrics metrics, Sleeper sleeper) {
        return new FlushPlans(new OffsetCommitter(consumer, metrics, RetryPolicy.offsetCommits(), sleeper, LOG),
                new PlanReplay(consumer, topic, recorded, replayBound(flushIntervalMs), System::nanoTime),
                recorded.namedWithoutTopicId());
    }

    /** A minute, or three flush intervals if longer: enough for a healthy broker to serve one flush again. */
    static Duration replayBound(long flushIntervalMs) {
        return Duration.ofMillis(Math.max(60_000, 3 * flushIntervalMs));
    }

    /**
     * Commits the plan of the flush about to be written for the first time. A commit that keeps failing throws
     * {@link PumpFailure} before anything is written.
     */
    void beforeFirstAttempt(List<OffsetRange> ranges) {
        if (committer == null || ranges.isEmpty()) {
            return;
        }
        String flush = UUID.randomUUID().toString().replace("-", "");
        Map<TopicPartition, OffsetAndMetadata> request = new HashMap<>();
        for (OffsetRange r : ranges) {
            FlushPlan plan = new FlushPlan(r.partition(), r.first(), r.last(), flush, ranges.size(), r.topicId());
            request.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.first(),
                    plan.metadata()));
        }
        committer.commitPlan(request);
    }

    /**
     * Whether the flush being replayed was planned by the version before topic ids, which named a flush by topic name
     * alone: the rebuilt flush must be named the same way to be recognised (an upgrade that met a crash inside the
     * window between the hoglake commit and the Kafka commit).
     */
    boolean replaysPlanWithoutTopicId() {
        return replaysPlanWithoutTopicId;
    }

    /** The polled records the current flush may take (see {@link PlanReplay#admit}). */
    List<ConsumerRecord<byte[], byte[]>> admit(List<ConsumerRecord<byte[], byte[]>> polled) {
        return replay == null ? polled : replay.admit(polled);
    }

    /** Whether the size and time triggers decide, or the replayed plan does. */
    PlanReplay.Step step() {
        return replay == null ? PlanReplay.Step.NORMAL : replay.step();
    }

    /** Whether a recorded flush is still being collected (a shutdown flush now would cut it elsewhere). */
    boolean replayIncomplete() {
        return replay != null && replay.incomplete();
    }
}
