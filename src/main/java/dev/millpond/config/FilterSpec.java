package dev.millpond.config;

import java.util.Objects;

/**
 * One filter direction's configuration: the column it reads and its static values.
 *
 * @param field  MILLPOND_FILTER_KEEP_FIELD_NAME or MILLPOND_FILTER_DROP_FIELD_NAME, a safe identifier
 * @param values MILLPOND_FILTER_VALUES or MILLPOND_FILTER_DROP_VALUES, never empty
 */
public record FilterSpec(String field, FilterValues values) {
    public FilterSpec {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(values, "values");
    }
}
