package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The JSON array one successful poll returned, de-duplicated.
 *
 * @param type   the values' type; empty for an empty array, which has none
 * @param values {@link Long}s or {@link String}s, all of {@code type}
 */
record ServedValues(Optional<FilterValues.Type> type, Set<Object> values) {

    ServedValues {
        Objects.requireNonNull(type, "type");
        values = Set.copyOf(values);
        if (type.isEmpty() != values.isEmpty()) {
            throw new IllegalArgumentException("only an empty array has no type");
        }
    }

    static ServedValues of(FilterValues.Type type, Object... values) {
        return values.length == 0 ? empty() : new ServedValues(Optional.of(type), Set.copyOf(java.util.Arrays.asList(values)));
    }

    static ServedValues empty() {
        return new ServedValues(Optional.empty(), Set.of());
    }

    boolean isEmpty() {
        return values.isEmpty();
    }
}
