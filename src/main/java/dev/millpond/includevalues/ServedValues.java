package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * The JSON array one successful poll returned, de-duplicated.
 *
 * @param type   the values' type; empty for an empty array, which has none
 * @param values all of {@code type} (an empty integer set for an empty array)
 */
record ServedValues(Optional<FilterValues.Type> type, FilterValues values) {

    ServedValues {
        Objects.requireNonNull(type, "type");
        if (type.isEmpty() != values.isEmpty() || type.isPresent() && type.get() != values.type()) {
            throw new IllegalArgumentException("only an empty array has no type, and values have the array's type");
        }
    }

    static ServedValues of(FilterValues.Type type, Object... values) {
        return values.length == 0 ? empty()
                : new ServedValues(Optional.of(type), FilterValues.of(type, Arrays.asList(values)));
    }

    static ServedValues empty() {
        return new ServedValues(Optional.empty(), FilterValues.empty(FilterValues.Type.INTEGER));
    }

    boolean isEmpty() {
        return values.isEmpty();
    }
}
