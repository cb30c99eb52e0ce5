package dev.millpond.observability;

/** Label values of {@code millpond_offsets_skipped_total{reason}}: why the consumer moved past offsets it never read. */
public enum OffsetSkipReason {
    /**
     * The next offset to read was below the log start (retention or a record deletion passed the pipeline, which was
     * stopped or lagging), so the consumer jumped to where {@code KAFKA_AUTO_OFFSET_RESET} says.
     */
    OUT_OF_RANGE("out_of_range");

    private final String label;

    OffsetSkipReason(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
