package dev.millpond.kafka;

import dev.millpond.config.AutoOffsetReset;

import java.util.Locale;
import java.util.OptionalLong;

/**
 * Where one partition resumes, and why: the greater of Kafka's start position and the offset the lake recorded with
 * the rows it holds. Kafka is behind the lake only when a pod died between the lake commit and the Kafka commit; the
 * lake is behind Kafka after its records were deleted, or when the last flushes skipped every record.
 *
 * @param partition   the Kafka partition
 * @param offset      where to resume; empty when Kafka's reset policy decides (no commit, no lake record)
 * @param seekToLake  whether the consumer must seek, because the lake is ahead of Kafka
 * @param skipped     records not replayed thanks to the lake (0 unless {@code seekToLake})
 * @param reason      the words of the startup log line
 */
public record ResumeDecision(int partition, OptionalLong offset, boolean seekToLake, long skipped, String reason) {

    /**
     * @param committed  Kafka's committed offset after stale-offset recovery, if any
     * @param kafkaStart where the consumer would start without the lake (committed, or the reset target), if known
     * @param lake       the next offset recorded in the lake for this table and group, if any
     * @param high       the partition's high watermark, if known: a lake offset beyond it belongs to an older topic
     */
    public static ResumeDecision decide(int partition, OptionalLong committed, OptionalLong kafkaStart, OptionalLong lake,
                                        OptionalLong high, AutoOffsetReset reset) {
        String kafka = committed.isPresent() ? Long.toString(committed.getAsLong())
                : "none, " + reset.kafkaValue() + (kafkaStart.isPresent() ? " → " + kafkaStart.getAsLong() : "");
        if (lake.isPresent() && high.isPresent() && lake.getAsLong() > high.getAsLong()) {
            return kafkaOnly(partition, committed, kafkaStart, reset, String.format(Locale.ROOT,
                    "; lake %d is beyond the log end %d and ignored", lake.getAsLong(), high.getAsLong()));
        }
        OptionalLong start = kafkaStart.isPresent() ? kafkaStart : committed;
        if (lake.isPresent() && (start.isEmpty() || lake.getAsLong() > start.getAsLong())) {
            long skipped = start.isPresent() ? lake.getAsLong() - start.getAsLong() : 0;
            return new ResumeDecision(partition, lake, true, skipped, String.format(Locale.ROOT,
                    "lake %d > kafka %s: %d records already written", lake.getAsLong(), kafka, skipped));
        }
        String lakeNote = lake.isPresent() ? "; lake " + lake.getAsLong() : "";
        return kafkaOnly(partition, committed, kafkaStart, reset, lakeNote);
    }

    private static ResumeDecision kafkaOnly(int partition, OptionalLong committed, OptionalLong kafkaStart,
                                            AutoOffsetReset reset, String note) {
        if (committed.isPresent()) {
            return new ResumeDecision(partition, committed, false, 0, "kafka committed" + note);
        }
        return new ResumeDecision(partition, kafkaStart, false, 0,
                "no offset: auto.offset.reset=" + reset.kafkaValue() + note);
    }

    /** {@code Partition 3: resuming at 1200 (lake 1200 > kafka 1100: 100 records already written)}. */
    public String logLine() {
        String at = offset.isPresent() ? Long.toString(offset.getAsLong()) : "the reset position";
        return "Partition " + partition + ": resuming at " + at + " (" + reason + ")";
    }
}
