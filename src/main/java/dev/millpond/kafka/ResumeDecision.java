package dev.millpond.kafka;

import dev.millpond.config.AutoOffsetReset;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where one partition resumes, and why. The pipeline landed everything below the greater of Kafka's committed offset
 * and the offset the lake recorded with its rows (Kafka is behind the lake only when a pod died between the lake
 * commit and the Kafka commit; the lake is behind Kafka after its records were deleted, or when the last flushes
 * skipped every record). Where neither knows the partition, {@code KAFKA_AUTO_OFFSET_RESET} decides. A landed offset
 * below the log start is a jump over offsets never read ({@link OffsetJump}); one beyond the log end means the log was
 * cut short (an unclean leader election) and the partition resumes at its end, where the next records will be written.
 *
 * @param partition     the Kafka partition
 * @param offset        where to resume
 * @param reason        the words of the startup log line
 * @param replaySkipped records not read again because the lake had them already
 * @param jump          offsets skipped unread because the log start passed the landed offset
 * @param recommit      whether {@code offset} is committed to Kafka at once, so lag gauges and
 *                      {@code __consumer_offsets} tools agree with where the pipeline stands
 */
public record ResumeDecision(int partition, long offset, String reason, long replaySkipped, Optional<OffsetJump> jump,
                             boolean recommit) {

    /**
     * What the lake and the group know beyond this partition.
     *
     * @param recreated     the lake recorded offsets for this topic name only under another topic id: the topic was
     *                      deleted and created again since, and every record of the new one is unread
     * @param otherOffsets  the group or the lake has an offset for another partition of this topic: the pipeline ran
     *                      before, so a partition neither knows was added since and holds nothing it has read
     */
    public record TopicHistory(Optional<String> recreated, boolean otherOffsets) {
        public static final TopicHistory NONE = new TopicHistory(Optional.empty(), false);
    }

    /**
     * @param committed Kafka's committed offset, if any
     * @param lake      the next offset recorded in the lake for this table, group and topic, if any
     * @param low       the partition's log start
     * @param high      the partition's log end (the last stable offset under {@code read_committed})
     */
    public static ResumeDecision decide(int partition, OptionalLong committed, OptionalLong lake, long low, long high,
                                        AutoOffsetReset reset, TopicHistory history) {
        long target = reset == AutoOffsetReset.EARLIEST ? low : high;
        if (history.recreated().isPresent()) {
            // Kafka drops a deleted topic's committed offsets; any committed now is the new topic's and below its end.
            return new ResumeDecision(partition, low, "topic recreated: the lake's offsets are the deleted topic's "
                    + history.recreated().get() + "; reading the new topic from its beginning", 0, Optional.empty(),
                    false);
        }
        String lakeNote = "";
        OptionalLong lakeInLog = lake;
        if (lake.isPresent() && lake.getAsLong() > high) {
            lakeNote = String.format(Locale.ROOT, "; lake %d is beyond the log end %d and ignored", lake.getAsLong(),
                    high);
            lakeInLog = OptionalLong.empty();
        }
        if (committed.isEmpty() && lakeInLog.isEmpty()) {
            if (history.otherOffsets()) {
                return new ResumeDecision(partition, low, "no offset, but other partitions of the topic have one: a"
                        + " partition added since, read from its beginning" + lakeNote, 0, Optional.empty(), false);
            }
            return new ResumeDecision(partition, target, "no offset: auto.offset.reset=" + reset.kafkaValue()
                    + lakeNote, 0, Optional.empty(), false);
        }
        boolean lakeAhead = lakeInLog.isPresent()
                && (committed.isEmpty() || lakeInLog.getAsLong() > committed.getAsLong());
        long landed = lakeAhead ? lakeInLog.getAsLong() : committed.getAsLong();
        if (landed < low) {
            return new ResumeDecision(partition, target, String.format(Locale.ROOT, "%s %d is below the log start %d:"
                            + " auto.offset.reset=%s", lakeAhead ? "lake" : "kafka committed", landed, low,
                    reset.kafkaValue()) + lakeNote, 0, Optional.of(new OffsetJump(partition, landed, low, target, reset)),
                    true);
        }
        if (landed > high) {
            return new ResumeDecision(partition, high, String.format(Locale.ROOT, "kafka committed %d is beyond the log"
                    + " end %d: the log was cut short, resuming at its end", landed, high) + lakeNote, 0,
                    Optional.empty(), true);
        }
        if (lakeAhead) {
            return lakeWins(partition, committed, lakeInLog.getAsLong(), target, reset);
        }
        String lakeBehind = lakeInLog.isPresent() ? "; lake " + lakeInLog.getAsLong() : "";
        return new ResumeDecision(partition, landed, "kafka committed" + lakeBehind + lakeNote, 0, Optional.empty(),
                false);
    }

    /**
     * The lake is ahead of Kafka, or Kafka has no offset at all (its commits expired, or an operator deleted the
     * group): the lake knows where the pipeline stands, and a reset policy never overrides it.
     */
    private static ResumeDecision lakeWins(int partition, OptionalLong committed, long lake, long target,
                                           AutoOffsetReset reset) {
        if (committed.isPresent()) {
            long skipped = lake - committed.getAsLong();
            return new ResumeDecision(partition, lake, String.format(Locale.ROOT,
                    "lake %d > kafka %d: %d records already written", lake, committed.getAsLong(), skipped), skipped,
                    Optional.empty(), true);
        }
        String kafka = "none, " + reset.kafkaValue() + " → " + target;
        if (lake > target) {
            long skipped = lake - target;
            return new ResumeDecision(partition, lake, String.format(Locale.ROOT,
                    "lake %d > kafka %s: %d records already written", lake, kafka, skipped), skipped,
                    Optional.empty(), true);
        }
        return new ResumeDecision(partition, lake, String.format(Locale.ROOT,
                "lake %d; kafka %s: the lake's offset wins over the reset policy", lake, kafka), 0, Optional.empty(),
                true);
    }

    /** {@code Partition 3: resuming at 1200 (lake 1200 > kafka 1100: 100 records already written)}. */
    public String logLine() {
        return "Partition " + partition + ": resuming at " + offset + " (" + reason + ")";
    }
}
