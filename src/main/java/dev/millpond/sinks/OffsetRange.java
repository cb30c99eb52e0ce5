package dev.millpond.sinks;

import java.util.Objects;
import java.util.Optional;

/**
 * The Kafka records of one partition that a flush covers, first to last offset inclusive (written or deliberately
 * skipped). A sink that stores {@link #next()} in the same commit as the rows can tell, after a crash,
 * which records are already in the lake.
 *
 * @param topicId the topic's Kafka id when known: a topic deleted and created again under the same name has a new one,
 *                so its offsets are never taken for the deleted topic's (empty where no id is recorded: tests, and the
 *                flush a previous version planned, which must be named as that version named it)
 */
public record OffsetRange(String topic, int partition, long first, long last, Optional<String> topicId) {

    public OffsetRange {
        if (first > last) {
            throw new IllegalArgumentException("first offset " + first + " > last offset " + last);
        }
        Objects.requireNonNull(topicId, "topicId");
    }

    /** A range of a topic whose id is not known. */
    public OffsetRange(String topic, int partition, long first, long last) {
        this(topic, partition, first, last, Optional.empty());
    }

    /** The ranges for a log line: {@code partition 3 offsets 10-19, partition 5 offsets 7-7}. */
    public static String describe(java.util.List<OffsetRange> ranges) {
        if (ranges.isEmpty()) {
            return "none";
        }
        StringBuilder b = new StringBuilder();
        for (OffsetRange r : ranges) {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            b.append("partition ").append(r.partition()).append(" offsets ").append(r.first()).append('-')
                    .append(r.last());
        }
        return b.toString();
    }

    /** The offset to resume at once this range is in the lake: the Kafka commit convention. */
    public long next() {
        return last + 1;
    }
}
