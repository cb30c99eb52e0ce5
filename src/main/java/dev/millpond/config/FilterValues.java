package dev.millpond.config;

import dev.millpond.vocabulary.UuidText;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An allowlist or denylist: the keep and drop filters' values, and each snapshot of the dynamic allowlist. Ints when
 * every configured token is an integer, strings otherwise; the two shapes stay distinct because they compare
 * differently against a column. Immutable, so a snapshot can be published to another thread as is.
 *
 * <p>A served allowlist can hold millions of values, so both shapes are sorted arrays without a per-value object
 * beyond what a value needs: a {@code long[]} of integers, a {@code String[]} of strings. Membership is a binary
 * search; the set algebra the damped allowlist needs ({@link #union}, {@link #minus}, {@link #presentIn}) walks
 * the sorted arrays and copies at most the result. {@link #heapBytes} is what the allowlist's share of the memory
 * budget counts.
 */
public sealed interface FilterValues permits FilterValues.Ints, FilterValues.Strings {

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

    default boolean isEmpty() {
        return size() == 0;
    }

    /**
     * The heap the values take: 8 bytes per integer; per string its object, its characters (two bytes each, the
     * most a string takes) and the array slot.
     */
    long heapBytes();

    /** The heap one string value takes, as {@link #heapBytes} counts it. */
    static long stringHeapBytes(int length) {
        return 56L + 2L * length;
    }

    /** Whether value {@code index} of {@code other} (of the same type) is in this set. */
    boolean containsValueOf(FilterValues other, int index);

    /** For each value of this set, whether {@code other} (of the same type) holds it. */
    default BitSet presentIn(FilterValues other) {
        BitSet present = new BitSet(size());
        for (int i = 0; i < size(); i++) {
            if (other.containsValueOf(this, i)) {
                present.set(i);
            }
        }
        return present;
    }

    /** The values {@code keep} marks, in order. */
    FilterValues select(BitSet keep);

    /** This set without the values of {@code other}; this very instance when none of them is here. */
    default FilterValues minus(FilterValues other) {
        BitSet present = presentIn(other);
        if (present.isEmpty()) {
            return this;
        }
        present.flip(0, size());
        return select(present);
    }

    /** This set with the values of {@code other} (of the same type); this very instance when it adds nothing. */
    FilterValues union(FilterValues other);

    /** The values as a set of {@link Long}s or {@link String}s: a boxed copy, for small sets and tests. */
    Set<Object> members();

    /** The values of an integer list as a set; fails on strings. A boxed copy, for small sets and tests. */
    default Set<Long> ints() {
        if (this instanceof Ints i) {
            return Set.copyOf(i.values());
        }
        throw new IllegalStateException("this list holds strings, not integers");
    }

    /** The values of a string list as a set; fails on integers. A boxed copy, for small sets and tests. */
    default Set<String> strings() {
        if (this instanceof Strings s) {
            return Set.copyOf(s.values());
        }
        throw new IllegalStateException("this list holds integers, not strings");
    }

    /** No value, of {@code type}. */
    static FilterValues empty(Type type) {
        return type == Type.INTEGER ? Ints.EMPTY : Strings.EMPTY;
    }

    /** {@code values} (all of {@code type}), de-duplicated. */
    static FilterValues of(Type type, Collection<?> values) {
        for (Object v : values) {
            if (Type.of(v) != type) {
                throw new IllegalArgumentException("a " + type + " list cannot hold " + v);
            }
        }
        return type == Type.INTEGER
                ? new Ints(values.stream().map(Long.class::cast).toList())
                : new Strings(values.stream().map(String.class::cast).toList());
    }

    /** Every token was an integer (negatives allowed): distinct values in ascending order. */
    final class Ints implements FilterValues {
        static final Ints EMPTY = new Ints(new long[0]);

        private final long[] sorted;

        /** The values in any order, duplicates allowed. */
        public Ints(List<Long> values) {
            this(sortedDistinct(values.stream().mapToLong(Long::longValue).toArray(), values.size()));
        }

        private Ints(long[] sortedDistinct) {
            this.sorted = sortedDistinct;
        }

        /**
         * The first {@code count} values of {@code values}, which this call sorts in place (and may keep: the caller
         * hands the array over).
         */
        public static Ints adopt(long[] values, int count) {
            return new Ints(sortedDistinct(values, count));
        }

        private static long[] sortedDistinct(long[] values, int count) {
            Arrays.sort(values, 0, count);
            int distinct = 0;
            for (int i = 0; i < count; i++) {
                if (distinct == 0 || values[i] != values[distinct - 1]) {
                    values[distinct++] = values[i];
                }
            }
            return distinct == values.length ? values : Arrays.copyOf(values, distinct);
        }

        /** The values in ascending order, boxed one at a time as they are read. */
        public List<Long> values() {
            return new AbstractList<>() {
                @Override
                public Long get(int index) {
                    return sorted[index];
                }

                @Override
                public int size() {
                    return sorted.length;
                }
            };
        }

        /** Value {@code index} in ascending order. */
        public long get(int index) {
            return sorted[index];
        }

        public boolean contains(long value) {
            return Arrays.binarySearch(sorted, value) >= 0;
        }

        /**
         * Whether {@code text} is the decimal text of a member, as casting the list to text writes it: {@code 42}
         * matches {@code "42"}, not {@code "042"} or {@code "+42"}. The value, or null.
         */
        public Long memberSpelled(CharSequence text) {
            int n = text.length();
            int start = n > 0 && text.charAt(0) == '-' ? 1 : 0;
            if (n == start || n - start > 19 || (text.charAt(start) == '0' && n - start > 1)
                    || (start == 1 && n == 2 && text.charAt(1) == '0')) {
                return null;
            }
            long v = 0;
            for (int i = start; i < n; i++) {
                char c = text.charAt(i);
                if (c < '0' || c > '9') {
                    return null;
                }
                long next = v * 10 - (c - '0'); // accumulate negatively: Long.MIN_VALUE has no positive twin
                if (v < Long.MIN_VALUE / 10 || next > v) {
                    return null;
                }
                v = next;
            }
            if (start == 0) {
                if (v == Long.MIN_VALUE) {
                    return null;
                }
                v = -v;
            }
            return contains(v) ? v : null;
        }

        @Override
        public int size() {
            return sorted.length;
        }

        @Override
        public Type type() {
            return Type.INTEGER;
        }

        @Override
        public long heapBytes() {
            return 16L + 8L * sorted.length;
        }

        @Override
        public boolean containsValueOf(FilterValues other, int index) {
            return contains(((Ints) other).sorted[index]);
        }

        @Override
        public BitSet presentIn(FilterValues other) {
            long[] theirs = ((Ints) other).sorted;
            BitSet present = new BitSet(sorted.length);
            int j = 0;
            for (int i = 0; i < sorted.length && j < theirs.length; i++) {
                while (j < theirs.length && theirs[j] < sorted[i]) {
                    j++;
                }
                if (j < theirs.length && theirs[j] == sorted[i]) {
                    present.set(i);
                }
            }
            return present;
        }

        @Override
        public FilterValues select(BitSet keep) {
            long[] out = new long[keep.cardinality()];
            int n = 0;
            for (int i = keep.nextSetBit(0); i >= 0 && i < sorted.length; i = keep.nextSetBit(i + 1)) {
                out[n++] = sorted[i];
            }
            return n == sorted.length ? this : new Ints(n == out.length ? out : Arrays.copyOf(out, n));
        }

        @Override
        public FilterValues union(FilterValues other) {
            long[] theirs = ((Ints) other).sorted;
            int added = theirs.length - other.presentIn(this).cardinality();
            if (added == 0) {
                return this;
            }
            long[] out = new long[sorted.length + added];
            int i = 0;
            int j = 0;
            int n = 0;
            while (i < sorted.length || j < theirs.length) {
                if (j == theirs.length || i < sorted.length && sorted[i] < theirs[j]) {
                    out[n++] = sorted[i++];
                } else if (i == sorted.length || theirs[j] < sorted[i]) {
                    out[n++] = theirs[j++];
                } else {
                    out[n++] = sorted[i++];
                    j++;
                }
            }
            return new Ints(out);
        }

        @Override
        public Set<Object> members() {
            Set<Object> out = new HashSet<>();
            for (long v : sorted) {
                out.add(v);
            }
            return out;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Ints other && Arrays.equals(sorted, other.sorted);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(sorted);
        }

        @Override
        public String toString() {
            return "Ints" + (sorted.length <= 20 ? Arrays.toString(sorted) : "[" + sorted.length + " values]");
        }
    }

    /** At least one token was not an integer, so all are strings: distinct values in ascending order. */
    final class Strings implements FilterValues {
        static final Strings EMPTY = new Strings(new String[0]);

        private final String[] sorted;
        private final long heapBytes;
        /** The values as UUIDs, derived on first use against a uuid column. */
        private volatile Uuids uuids;

        /** The values in any order, duplicates allowed. */
        public Strings(List<String> values) {
            this(sortedDistinct(values.toArray(new String[0]), values.size()));
        }

        private Strings(String[] sortedDistinct) {
            this.sorted = sortedDistinct;
            long bytes = 16;
            for (String s : sortedDistinct) {
                bytes += stringHeapBytes(s.length());
            }
            this.heapBytes = bytes;
        }

        /**
         * The first {@code count} values of {@code values}, which this call sorts in place (and may keep: the caller
         * hands the array over).
         */
        public static Strings adopt(String[] values, int count) {
            return new Strings(sortedDistinct(values, count));
        }

        private static String[] sortedDistinct(String[] values, int count) {
            Arrays.sort(values, 0, count);
            int distinct = 0;
            for (int i = 0; i < count; i++) {
                if (distinct == 0 || !values[i].equals(values[distinct - 1])) {
                    values[distinct++] = values[i];
                }
            }
            Arrays.fill(values, distinct, count, null);
            return distinct == values.length ? values : Arrays.copyOf(values, distinct);
        }

        /** The values in ascending order. */
        public List<String> values() {
            return Collections.unmodifiableList(Arrays.asList(sorted));
        }

        public boolean contains(String value) {
            return Arrays.binarySearch(sorted, value) >= 0;
        }

        /** The member equal to {@code value}, or null: the instance kept, so a caller can reuse it as a label. */
        public String member(String value) {
            int at = Arrays.binarySearch(sorted, value);
            return at >= 0 ? sorted[at] : null;
        }

        /**
         * The values read as UUIDs: the canonical text of each that is one, and how many are not (with the first).
         * Derived once per set, on first use.
         */
        public Uuids uuids() {
            Uuids u = uuids;
            if (u == null) {
                String[] canonical = new String[sorted.length];
                int usable = 0;
                int bad = 0;
                String firstBad = null;
                for (String s : sorted) {
                    UuidText.Bits bits = UuidText.parse(s);
                    if (bits == null) {
                        bad++;
                        firstBad = firstBad == null ? s : firstBad;
                    } else {
                        String c = bits.canonical();
                        canonical[usable++] = c.equals(s) ? s : c; // the common case keeps the one instance
                    }
                }
                u = new Uuids(adopt(canonical, usable), bad, firstBad);
                uuids = u;
            }
            return u;
        }

        /**
         * @param usable      the canonical text of every value that is a UUID
         * @param unparseable how many values are not
         * @param firstBad    the first of those (in ascending order), null when there is none
         */
        public record Uuids(Strings usable, int unparseable, String firstBad) {
        }

        @Override
        public int size() {
            return sorted.length;
        }

        @Override
        public Type type() {
            return Type.STRING;
        }

        @Override
        public long heapBytes() {
            return heapBytes;
        }

        @Override
        public boolean containsValueOf(FilterValues other, int index) {
            return contains(((Strings) other).sorted[index]);
        }

        @Override
        public BitSet presentIn(FilterValues other) {
            String[] theirs = ((Strings) other).sorted;
            BitSet present = new BitSet(sorted.length);
            int j = 0;
            for (int i = 0; i < sorted.length && j < theirs.length; i++) {
                while (j < theirs.length && theirs[j].compareTo(sorted[i]) < 0) {
                    j++;
                }
                if (j < theirs.length && theirs[j].equals(sorted[i])) {
                    present.set(i);
                }
            }
            return present;
        }

        @Override
        public FilterValues select(BitSet keep) {
            String[] out = new String[keep.cardinality()];
            int n = 0;
            for (int i = keep.nextSetBit(0); i >= 0 && i < sorted.length; i = keep.nextSetBit(i + 1)) {
                out[n++] = sorted[i];
            }
            return n == sorted.length ? this : new Strings(n == out.length ? out : Arrays.copyOf(out, n));
        }

        @Override
        public FilterValues union(FilterValues other) {
            String[] theirs = ((Strings) other).sorted;
            int added = theirs.length - other.presentIn(this).cardinality();
            if (added == 0) {
                return this;
            }
            String[] out = new String[sorted.length + added];
            int i = 0;
            int j = 0;
            int n = 0;
            while (i < sorted.length || j < theirs.length) {
                int c = i == sorted.length ? 1 : j == theirs.length ? -1 : sorted[i].compareTo(theirs[j]);
                if (c < 0) {
                    out[n++] = sorted[i++];
                } else if (c > 0) {
                    out[n++] = theirs[j++];
                } else {
                    out[n++] = sorted[i++];
                    j++;
                }
            }
            return new Strings(out);
        }

        @Override
        public Set<Object> members() {
            return new HashSet<>(Arrays.asList(sorted));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Strings other && Arrays.equals(sorted, other.sorted);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(sorted);
        }

        @Override
        public String toString() {
            return "Strings" + (sorted.length <= 20 ? Arrays.toString(sorted) : "[" + sorted.length + " values]");
        }
    }
}
