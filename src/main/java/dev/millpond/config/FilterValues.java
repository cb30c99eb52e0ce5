package dev.millpond.config;

import java.util.List;

/**
 * A keep or drop value list after int/string auto-detection: ints when every token is an integer, strings
 * otherwise. The two shapes stay distinct because they compare differently against a column.
 */
public sealed interface FilterValues {

    int size();

    /** Every token was an integer (negatives allowed). */
    record Ints(List<Long> values) implements FilterValues {
        public Ints {
            values = List.copyOf(values);
        }

        @Override
        public int size() {
            return values.size();
        }
    }

    /** At least one token was not an integer, so all are strings. */
    record Strings(List<String> values) implements FilterValues {
        public Strings {
            values = List.copyOf(values);
        }

        @Override
        public int size() {
            return values.size();
        }
    }
}
