package dev.millpond.stages;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * bigint: {@code "42"} → 42 (optional sign, ASCII digits, int64 range); {@code "x"}, {@code "2.5"} → null;
 * 1.0 → 1; 1.9 → null (no silent truncation); bool → 1/0.
 */
final class ToBigint extends ColumnCoercion {
    static final ArrowType TYPE = new ArrowType.Int(64, true);

    @Override
    boolean isTarget(Field field) {
        return TYPE.equals(field.getType());
    }

    @Override
    FieldVector newTarget(String name, BufferAllocator allocator) {
        return new BigIntVector(name, allocator);
    }

    @Override
    int fill(FieldVector source, FieldVector target, int rows) {
        BigIntVector out = (BigIntVector) target;
        int nulled = 0;
        if (source instanceof VarCharVector text) {
            Utf8Slice slice = new Utf8Slice();
            for (int i = 0; i < rows; i++) {
                if (!text.isNull(i)) {
                    Long v = parse(slice.load(text, i));
                    if (v == null) {
                        nulled++;
                    } else {
                        out.set(i, v);
                    }
                }
            }
            return nulled;
        }
        if (source instanceof Float8Vector doubles) {
            for (int i = 0; i < rows; i++) {
                if (!doubles.isNull(i)) {
                    double d = doubles.get(i);
                    // -2^63 is exact as a double; 2^63 is not an int64, hence the strict upper bound.
                    if (d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63) {
                        out.set(i, (long) d);
                    } else {
                        nulled++;
                    }
                }
            }
            return nulled;
        }
        if (source instanceof BitVector bits) {
            for (int i = 0; i < rows; i++) {
                if (!bits.isNull(i)) {
                    out.set(i, bits.get(i));
                }
            }
            return 0;
        }
        return nullAll(source, rows);
    }

    /** An optionally signed run of ASCII digits within int64, else null. */
    static Long parse(CharSequence s) {
        int n = s.length();
        int i = 0;
        boolean negative = false;
        if (n > 0 && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            negative = s.charAt(0) == '-';
            i = 1;
        }
        if (i == n) {
            return null;
        }
        long v = 0;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            // Accumulate negatively so Long.MIN_VALUE fits.
            if (v < (Long.MIN_VALUE + (c - '0')) / 10) {
                return null;
            }
            v = v * 10 - (c - '0');
        }
        if (!negative) {
            if (v == Long.MIN_VALUE) {
                return null;
            }
            v = -v;
        }
        return v;
    }
}
