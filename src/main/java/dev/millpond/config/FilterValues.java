package dev.millpond.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * An allowlist or denylist: the keep and drop filters' values, and each snapshot of the dynamic allowlist. Ints when
 * every configured token is an integer, strings otherwise; the two shapes stay distinct because they compare
 * differently against a column. Immutable, so a snapshot can be published to another thread as is.
 */
public sealed interface FilterValues {

    /** The value type, fixed for a process by the static list's auto-detection. */
    enum Type {
        /** Values are {@link Long}s. */
        INTEGER,
        /** Values are {@link String}s, exactly as configured or served. */
        STRING;

        /** The type of one value; values are only ever {@link Long} or {@link String}. */
        public static Type of(Object value) {
            if (value instanceof Long) {
                return INTEGER;
            }
            if (value instanceof String) {
                return STRING;
            }
            throw new IllegalArgumentException("not an allowlist value: " + value.getClass().getName());
        }
    }

    int size();

    Type type();

    /** The values as a set, for set algebra. */
    Set<Object> members();

    /** The values of an integer list as a set; fails on strings. */
    default Set<Long> ints() {
        if (this instanceof Ints i) {
            return Set.copyOf(i.values());
        }
        throw new IllegalStateException("this list holds strings, not integers");
    }

    /** The values of a string list as a set; fails on integers. */
    default Set<String> strings() {
        if (this instanceof Strings s) {
            return Set.copyOf(s.values());
        }
        throw new IllegalStateException("this list holds integers, not strings");
    }

    /** {@code values} (all of {@code type}) in natural order, so equal sets give equal lists. */
    static FilterValues of(Type type, Collection<?> values) {
        List<Object> sorted = new ArrayList<>(values);
        for (Object v : sorted) {
            if (Type.of(v) != type) {
                throw new IllegalArgumentException("a " + type + " list cannot hold " + v);
            }
        }
        sorted.sort(null);
        return type == Type.INTEGER
                ? new Ints(sorted.stream().map(Long.class::cast).toList())
                : new Strings(sorted.stream().map(String.class::cast).toList());
    }

    /** Every token was an integer (negatives allowed). */
    record Ints(List<Long> values) implements FilterValues {
        public Ints {
            values = List.copyOf(values);
        }

        @Override
        public int size() {
            return values.size();
        }

        @Override
        public Type type() {
            return Type.INTEGER;
        }

        @Override
        public Set<Object> members() {
            return Set.copyOf(values);
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

        @Override
        public Type type() {
            return Type.STRING;
        }

        @Override
        public Set<Object> members() {
            return Set.copyOf(values);
        }
    }
}
