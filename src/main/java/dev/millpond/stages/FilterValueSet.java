package dev.millpond.stages;

import dev.millpond.vocabulary.UuidVector;
import dev.millpond.config.FilterValues;
import dev.millpond.vocabulary.UuidText;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * A filter's values prepared for comparison against a column, with the original's cast semantics (the value list
 * is cast to the column's type):
 * <ul>
 *   <li>int64 column: an int list compares numerically; a string list (auto-detection found a non-integer token)
 *       does not cast to int64 and is {@link Resolution.Unsupported}.</li>
 *   <li>string column: values compare as text; an int list compares by its decimal text ({@code 42} matches
 *       {@code "42"} but not {@code "042"}), which is what casting the list to string does.</li>
 *   <li>uuid column (pinned): values are parsed as UUIDs and compared as 16 bytes; unparseable ones drop out of
 *       the comparison; if none is left the result is {@link Resolution.NoUsableValues}.</li>
 *   <li>any other column type is {@link Resolution.Unsupported}: bool, double, timestamp… would match by
 *       surprising casts.</li>
 * </ul>
 * Immutable after construction except for lazily built lookup tables; one instance per value-set snapshot.
 */
final class FilterValueSet {
    private final FilterValues values;
    private Map<Long, String> ints;
    private Map<String, String> texts;
    private UuidValues uuids;

    FilterValueSet(FilterValues values) {
        this.values = values;
    }

    int size() {
        return values.size();
    }

    /** How the set compares against one column. */
    sealed interface Resolution {
        /** The column type cannot be compared with these values. */
        record Unsupported(String reason) implements Resolution {
        }

        /** A uuid column and no configured value is a UUID. */
        record NoUsableValues() implements Resolution {
        }

        /** Rows can be matched. */
        record Ready(RowMatch match) implements Resolution {
        }
    }

    /** Matches one non-null row. */
    interface RowMatch {
        /** The matched value's label (its {@code filter_matched_total} value), or null when not a member. */
        String matchedLabel(int row);
    }

    /** The configured values a uuid column cannot use, and the usable ones keyed by their bits. */
    record UuidValues(Map<UuidText.Bits, String> usable, List<String> unparseable) {
    }

    Resolution resolve(FieldVector column) {
        if (column instanceof BigIntVector longs) {
            if (!(values instanceof FilterValues.Ints)) {
                return new Resolution.Unsupported("the values do not all cast to int64");
            }
            Map<Long, String> set = ints();
            return new Resolution.Ready(row -> set.get(longs.get(row)));
        }
        if (column instanceof VarCharVector strings) {
            Map<String, String> set = texts();
            Utf8Slice slice = new Utf8Slice();
            return new Resolution.Ready(row -> set.get(slice.load(strings, row).toString()));
        }
        if (column instanceof UuidVector uuidColumn) {
            UuidValues u = uuids();
            if (u.usable().isEmpty()) {
                return new Resolution.NoUsableValues();
            }
            return new Resolution.Ready(row -> u.usable().get(new UuidText.Bits(uuidColumn.high(row),
                    uuidColumn.low(row))));
        }
        return new Resolution.Unsupported("column type " + column.getField().getType()
                + " is not filterable (only integer, string and uuid-pinned columns are)");
    }

    UuidValues uuids() {
        if (uuids == null) {
            Map<UuidText.Bits, String> usable = new HashMap<>();
            List<String> bad = new ArrayList<>();
            for (String t : textList()) {
                UuidText.Bits bits = UuidText.parse(t);
                if (bits == null) {
                    bad.add(t);
                } else {
                    usable.put(bits, bits.canonical());
                }
            }
            uuids = new UuidValues(Map.copyOf(usable), List.copyOf(bad));
        }
        return uuids;
    }

    private Map<Long, String> ints() {
        if (ints == null) {
            Map<Long, String> m = new HashMap<>();
            for (Long v : ((FilterValues.Ints) values).values()) {
                m.put(v, Long.toString(v));
            }
            ints = m;
        }
        return ints;
    }

    private Map<String, String> texts() {
        if (texts == null) {
            Map<String, String> m = new HashMap<>();
            for (String t : textList()) {
                m.put(t, t);
            }
            texts = m;
        }
        return texts;
    }

    private List<String> textList() {
        return values instanceof FilterValues.Strings s
                ? s.values()
                : ((FilterValues.Ints) values).values().stream().map(String::valueOf).toList();
    }
}
