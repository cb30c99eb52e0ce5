package dev.millpond.observability;

/** Label values of {@code millpond_sort_skipped_total{reason}}. */
public enum SortSkipReason {
    FIELD_MISSING("field_missing"),
    UNSORTABLE_TYPE("unsortable_type");

    private final String label;

    SortSkipReason(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
