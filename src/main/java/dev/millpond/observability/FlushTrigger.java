package dev.millpond.observability;

/** Why a flush ran; the label value of {@code millpond_batches_flushed_total{trigger}}. */
public enum FlushTrigger {
    SIZE("size"), TIME("time");

    private final String label;

    FlushTrigger(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
