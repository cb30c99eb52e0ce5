package dev.millpond.stages;

import dev.millpond.vocabulary.UuidVector;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * One sort column's values extracted over all rows of a flush (row {@code r} of the concatenation), compared
 * ascending with nulls last. Extracting once keeps the comparator free of vector lookups.
 */
sealed interface SortKey {

    /** Negative, zero or positive as row {@code a} sorts before, with or after row {@code b}; nulls last. */
    int compare(int a, int b);

    /** Whether a column of this vector class can be a sort key; lists, maps, structs cannot. */
    static boolean isSortable(FieldVector v) {
        return v instanceof BaseIntVector || v instanceof BitVector || v instanceof Float8Vector
                || v instanceof Float4Vector || v instanceof TimeStampVector || v instanceof VarCharVector
                || v instanceof UuidVector || v instanceof FixedSizeBinaryVector;
    }

    /** The key over {@code column}, one vector per batch; {@link #isSortable} must hold. */
    static SortKey of(List<FieldVector> column, int rows) {
        boolean[] nulls = new boolean[rows];
        FieldVector first = column.get(0);
        if (first instanceof Float8Vector || first instanceof Float4Vector) {
            double[] values = new double[rows];
            int r = 0;
            for (FieldVector v : column) {
                for (int i = 0; i < v.getValueCount(); i++, r++) {
                    nulls[r] = v.isNull(i);
                    if (!nulls[r]) {
                        values[r] = v instanceof Float8Vector d ? d.get(i) : ((Float4Vector) v).get(i);
                    }
                }
            }
            return new Doubles(values, nulls);
        }
        if (first instanceof VarCharVector || first instanceof FixedSizeBinaryVector) {
            byte[][] values = new byte[rows][];
            int r = 0;
            for (FieldVector v : column) {
                for (int i = 0; i < v.getValueCount(); i++, r++) {
                    nulls[r] = v.isNull(i);
                    if (!nulls[r]) {
                        values[r] = v instanceof VarCharVector s ? s.get(i) : ((FixedSizeBinaryVector) v).get(i);
                    }
                }
            }
            return new Bytes(values, nulls);
        }
        if (first instanceof UuidVector) {
            // Unsigned comparison of the big-endian halves is bytewise order, which is canonical text order.
            long[] high = new long[rows];
            long[] low = new long[rows];
            int r = 0;
            for (FieldVector v : column) {
                UuidVector u = (UuidVector) v;
                for (int i = 0; i < u.getValueCount(); i++, r++) {
                    nulls[r] = u.isNull(i);
                    if (!nulls[r]) {
                        high[r] = u.high(i);
                        low[r] = u.low(i);
                    }
                }
            }
            return new Uuids(high, low, nulls);
        }
        long[] values = new long[rows];
        int r = 0;
        for (FieldVector v : column) {
            for (int i = 0; i < v.getValueCount(); i++, r++) {
                nulls[r] = v.isNull(i);
                if (!nulls[r]) {
                    values[r] = v instanceof BaseIntVector n ? n.getValueAsLong(i)
                            : v instanceof BitVector b ? b.get(i) : ((TimeStampVector) v).get(i);
                }
            }
        }
        return new Longs(values, nulls);
    }

    private static int nullsLast(boolean[] nulls, int a, int b) {
        return Boolean.compare(nulls[a], nulls[b]);
    }

    record Longs(long[] values, boolean[] nulls) implements SortKey {
        @Override
        public int compare(int a, int b) {
            return nulls[a] || nulls[b] ? nullsLast(nulls, a, b) : Long.compare(values[a], values[b]);
        }
    }

    /** NaN sorts after every number and before nulls, as Arrow's sort does. */
    record Doubles(double[] values, boolean[] nulls) implements SortKey {
        @Override
        public int compare(int a, int b) {
            return nulls[a] || nulls[b] ? nullsLast(nulls, a, b) : Double.compare(values[a], values[b]);
        }
    }

    /** Unsigned bytewise order: for UTF-8 text that is code-point order. */
    record Bytes(byte[][] values, boolean[] nulls) implements SortKey {
        @Override
        public int compare(int a, int b) {
            return nulls[a] || nulls[b] ? nullsLast(nulls, a, b) : Arrays.compareUnsigned(values[a], values[b]);
        }
    }

    record Uuids(long[] high, long[] low, boolean[] nulls) implements SortKey {
        @Override
        public int compare(int a, int b) {
            if (nulls[a] || nulls[b]) {
                return nullsLast(nulls, a, b);
            }
            int c = Long.compareUnsigned(high[a], high[b]);
            return c != 0 ? c : Long.compareUnsigned(low[a], low[b]);
        }
    }
}
