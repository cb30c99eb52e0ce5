package dev.millpond.sinks;

/**
 * The Kafka records of one partition that a flush covers, first to last offset inclusive (written or deliberately
 * skipped). A sink that stores {@link #next()} in the same commit as the rows can tell, after a crash,
 * which records are already in the lake.
 */
public record OffsetRange(String topic, int partition, long first, long last) {

    public OffsetRange {
        if (first > last) {
            throw new IllegalArgumentException("first offset " + first + " > last offset " + last);
        }
    }

    /** The offset to resume at once this range is in the lake: the Kafka commit convention. */
    public long next() {
        return last + 1;
    }
}
