package dev.millpond.observability;

/** Label values of {@code millpond_records_skipped_total{reason}}, exactly as the original names them. */
public enum SkipReason {
    JSON_PARSE("json_parse"),
    FILTER_FIELD_MISSING("filter_field_missing"),
    FILTER_EXCLUDED("filter_excluded"),
    FILTER_VALUE_INVALID("filter_value_invalid"),
    FILTER_DROPPED("filter_dropped"),
    UNSAFE_FIELD_NAME("unsafe_field_name"),
    RESERVED_FIELD_NAME("reserved_field_name"),
    DUPLICATE_FIELD_NAME("duplicate_field_name"),
    VARIANT_COMPANION_COLLISION("variant_companion_collision"),
    /** New in the Java build: the record needed a column past MILLPOND_MAX_TABLE_COLUMNS / _PER_FLUSH. */
    COLUMN_LIMIT("column_limit"),
    /** New in the Java build: the record's value of a partition key holds U+0000, which DuckLake cannot store there. */
    NUL_IN_PARTITION_VALUE("nul_in_partition_value");

    private final String label;

    SkipReason(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
