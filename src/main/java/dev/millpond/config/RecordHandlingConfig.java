package dev.millpond.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Optional record handling. Each stage is disabled when its variables are unset. Parsed by
 * {@link RecordHandlingParser}; MILLPOND_VARIANT_COLUMNS and MILLPOND_INCLUDE_VALUES_* are not parsed here yet
 * and become further components when they are.
 *
 * @param typedColumns MILLPOND_TYPED_COLUMNS, column → target type, in first-appearance order
 * @param keep         MILLPOND_FILTER_KEEP_FIELD_NAME + MILLPOND_FILTER_VALUES
 * @param drop         MILLPOND_FILTER_DROP_FIELD_NAME + MILLPOND_FILTER_DROP_VALUES
 * @param sortBy       MILLPOND_SORT_BY, de-duplicated, in tuple order
 */
public record RecordHandlingConfig(
        Map<String, PinnedType> typedColumns,
        Optional<FilterSpec> keep,
        Optional<FilterSpec> drop,
        List<String> sortBy) {

    public RecordHandlingConfig {
        // LinkedHashMap copy keeps the operator's order, which the coercion logs and tests rely on.
        typedColumns = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(typedColumns));
        Objects.requireNonNull(keep, "keep");
        Objects.requireNonNull(drop, "drop");
        sortBy = List.copyOf(sortBy);
    }

    /** All stages disabled. */
    public static RecordHandlingConfig disabled() {
        return new RecordHandlingConfig(Map.of(), Optional.empty(), Optional.empty(), List.of());
    }

    public RecordHandlingConfig withTypedColumns(Map<String, PinnedType> columns) {
        return new RecordHandlingConfig(columns, keep, drop, sortBy);
    }

    public RecordHandlingConfig withKeep(FilterSpec spec) {
        return new RecordHandlingConfig(typedColumns, Optional.of(spec), drop, sortBy);
    }

    public RecordHandlingConfig withDrop(FilterSpec spec) {
        return new RecordHandlingConfig(typedColumns, keep, Optional.of(spec), sortBy);
    }

    public RecordHandlingConfig withSortBy(List<String> columns) {
        return new RecordHandlingConfig(typedColumns, keep, drop, columns);
    }
}
