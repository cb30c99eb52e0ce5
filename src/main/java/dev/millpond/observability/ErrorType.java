package dev.millpond.observability;

/** Label values of {@code millpond_errors_total{type}}, exactly as the original names them, plus millpond's own. */
public enum ErrorType {
    KAFKA("kafka"),
    WRITE_RETRY("write_retry"),
    DUCKLAKE_COMMIT_CONTENTION("ducklake_commit_contention"),
    HOGLAKE_COMMIT_CONTENTION("hoglake_commit_contention"),
    OFFSET_COMMIT("offset_commit"),
    SCHEMA("schema"),
    COLUMN_COERCION("column_coercion"),
    VARIANT_WRITE("variant_write"),
    FILTER_VALUE_INVALID("filter_value_invalid"),
    /** Not the original's: a DuckLake flush refused because the lake already holds its records (a second owner). */
    OFFSET_FENCE("offset_fence");

    private final String label;

    ErrorType(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
