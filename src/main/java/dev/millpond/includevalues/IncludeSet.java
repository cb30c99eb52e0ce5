package dev.millpond.includevalues;

import java.util.Collection;
import java.util.Objects;
import java.util.Set;

/**
 * One immutable snapshot of the effective allowlist. The source publishes a new instance only when membership
 * changes, so a reader may cache anything it derives from a snapshot (parsed UUID bytes, an Arrow lookup vector)
 * and rebuild it when {@code current != cached} by identity.
 *
 * <p>String sets hold the values exactly as configured or served, unparsed: a uuid-pinned keep field parses them
 * itself and drops the ones that are not UUIDs (its {@code errors_total{type="filter_value_invalid"}}).
 *
 * @param type   the value type, the static list's
 * @param values {@link Long}s for {@link IncludeValueType#INTEGER}, {@link String}s for {@link IncludeValueType#STRING}
 */
public record IncludeSet(IncludeValueType type, Set<Object> values) {

    public IncludeSet {
        Objects.requireNonNull(type, "type");
        values = Set.copyOf(values);
        for (Object v : values) {
            if (IncludeValueType.of(v) != type) {
                throw new IllegalArgumentException("a " + type + " set cannot hold " + v);
            }
        }
    }

    static IncludeSet of(IncludeValueType type, Collection<?> values) {
        return new IncludeSet(type, Set.copyOf(values));
    }

    /** The values of an {@link IncludeValueType#INTEGER} set; fails on a string set. */
    @SuppressWarnings("unchecked")
    public Set<Long> ints() {
        requireType(IncludeValueType.INTEGER);
        return (Set<Long>) (Set<?>) values;
    }

    /** The raw values of a {@link IncludeValueType#STRING} set; fails on an integer set. */
    @SuppressWarnings("unchecked")
    public Set<String> strings() {
        requireType(IncludeValueType.STRING);
        return (Set<String>) (Set<?>) values;
    }

    public int size() {
        return values.size();
    }

    private void requireType(IncludeValueType expected) {
        if (type != expected) {
            throw new IllegalStateException("this include set holds " + type + " values, not " + expected);
        }
    }
}
