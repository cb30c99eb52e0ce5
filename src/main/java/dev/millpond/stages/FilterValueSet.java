package dev.millpond.stages;

import dev.millpond.vocabulary.UuidVector;
import dev.millpond.config.FilterValues;
import dev.millpond.vocabulary.UuidText;

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
 *   <li>uuid column (pinned): values are parsed as UUIDs and compared as such; unparseable ones drop out of
 *       the comparison; if none is left the result is {@link Resolution.NoUsableValues}.</li>
 *   <li>any other column type is {@link Resolution.Unsupported}: bool, double, timestamp… would match by
 *       surprising casts.</li>
 * </ul>
 * A view over the sorted values: every lookup is a binary search in them, so a set of millions of values costs
 * nothing beyond its own arrays. Cheap to make, one per batch; what it derives (the values as UUIDs) is kept by the
 * value set itself.
 */
final class FilterValueSet {
    private final FilterValues values;

    FilterValueSet(FilterValues values) {
        this.values = values;
    }

    int size() {
        return values.size();
    }

    /** The value set this view compares with. */
    FilterValues values() {
        return values;
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

    Resolution resolve(FieldVector column) {
        if (column instanceof BigIntVector longs) {
            if (!(values instanceof FilterValues.Ints ints)) {
                return new Resolution.Unsupported("the values do not all cast to int64");
            }
            return new Resolution.Ready(row -> {
                long v = longs.get(row);
                return ints.contains(v) ? Long.toString(v) : null;
            });
        }
        if (column instanceof VarCharVector strings) {
            Utf8Slice slice = new Utf8Slice();
            if (values instanceof FilterValues.Ints ints) {
                return new Resolution.Ready(row -> {
                    Long v = ints.memberSpelled(slice.load(strings, row));
                    return v == null ? null : v.toString();
                });
            }
            FilterValues.Strings texts = (FilterValues.Strings) values;
            return new Resolution.Ready(row -> texts.member(slice.load(strings, row).toString()));
        }
        if (column instanceof UuidVector uuidColumn) {
            FilterValues.Strings.Uuids u = uuids();
            if (u.usable().isEmpty()) {
                return new Resolution.NoUsableValues();
            }
            return new Resolution.Ready(row -> u.usable().member(UuidText.canonical(uuidColumn.high(row),
                    uuidColumn.low(row))));
        }
        return new Resolution.Unsupported("column type " + column.getField().getType()
                + " is not filterable (only integer, string and uuid-pinned columns are)");
    }

    /** The values read as UUIDs; an integer is never one. */
    FilterValues.Strings.Uuids uuids() {
        if (values instanceof FilterValues.Strings s) {
            return s.uuids();
        }
        FilterValues.Ints ints = (FilterValues.Ints) values;
        return new FilterValues.Strings.Uuids((FilterValues.Strings) FilterValues.empty(FilterValues.Type.STRING),
                ints.size(), ints.size() == 0 ? null : Long.toString(ints.get(0)));
    }
}
