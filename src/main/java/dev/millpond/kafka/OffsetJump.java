package dev.millpond.kafka;

import dev.millpond.config.AutoOffsetReset;

import java.util.Locale;

/**
 * The consumer moving past offsets the pipeline never landed, because the next offset it needed ({@code firstMissing})
 * had fallen below the partition's log start ({@code logStart}): retention (or a record deletion) passed a pipeline
 * that was stopped or lagging. It resumes at {@code position}, where {@code KAFKA_AUTO_OFFSET_RESET} says: the log
 * start for {@code earliest}, the log end for {@code latest}.
 */
public record OffsetJump(int partition, long firstMissing, long logStart, long position, AutoOffsetReset reset) {

    public OffsetJump {
        if (firstMissing >= logStart || position < logStart) {
            throw new IllegalArgumentException("not a jump over a log start: next " + firstMissing + ", log start "
                    + logStart + ", resuming at " + position);
        }
    }

    /** The offsets jumped over: those retention deleted, and under {@code latest} the rest of the log as well. */
    public long skipped() {
        return position - firstMissing;
    }

    /**
     * {@code Partition 3: 380 offsets skipped unread, 120..499: the next offset 120 is below the log start 500
     * (retention or a record deletion passed the pipeline); resuming at 500 (auto.offset.reset=earliest)}.
     */
    public String describe() {
        return String.format(Locale.ROOT, "Partition %d: %d offsets skipped unread, %d..%d: the next offset %d is below"
                        + " the log start %d (retention or a record deletion passed the pipeline); resuming at %d"
                        + " (auto.offset.reset=%s)", partition, skipped(), firstMissing, position - 1, firstMissing,
                logStart, position, reset.kafkaValue());
    }
}
