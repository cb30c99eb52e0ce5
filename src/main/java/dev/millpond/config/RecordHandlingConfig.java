package dev.millpond.config;

/**
 * Optional record handling (MILLPOND_FILTER_*, MILLPOND_TYPED_COLUMNS, MILLPOND_SORT_BY,
 * MILLPOND_VARIANT_COLUMNS, MILLPOND_INCLUDE_VALUES_*). Not parsed in this build yet: every stage is
 * disabled. The parser for this group is {@link ConfigLoader}'s {@code RECORD_HANDLING} group; when it is
 * implemented, its components are added here.
 */
public record RecordHandlingConfig() {

    /** All stages disabled. */
    public static RecordHandlingConfig disabled() {
        return new RecordHandlingConfig();
    }
}
