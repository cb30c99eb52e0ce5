package dev.millpond.kafka;

/** KAFKA_AUTO_OFFSET_RESET: where a partition with no (or a stale) committed offset starts. */
public enum OffsetReset {
    EARLIEST, LATEST;

    public String kafkaValue() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
