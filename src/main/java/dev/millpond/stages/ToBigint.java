package dev.millpond.stages;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * bigint: {@code "42"} → 42 (optional sign, ASCII digits, int64 range); {@code "x"}, {@code "2.5"} → null;
 * 1.0 → 1; 1.9 → null (no silent truncation); bool → 1/0.
 */
final class ToBigint extends ColumnCoercion {
    static final ArrowType TYPE = new ArrowType.Int(64, true);

    ToBigint() {
        super(TYPE, BigIntVector::new);
    }

    @Override
    int fill(FieldVector source, FieldVector target, int rows) {
        BigIntVector out = (BigIntVector) target;
        if (source instanceof VarCharVector text) {
            return eachText(text, rows, (i, s) -> {
                Long v = parse(s);
                if (v != null) {
                    out.set(i, v);
                }
                return v != null;
            });
        }
        // -2^63 is exact as a double; 2^63 is not an int64, hence the strict upper bound.
        if (source instanceof Float8Vector doubles) {
            return eachDouble(doubles, rows, (i, d) -> {
                boolean integral = d == Math.rint(d) && d >= -0x1p63 && d < 0x1p63;
                if (integral) {
                    out.set(i, (long) d);
                }
                return integral;
            });
        }
        if (source instanceof BitVector bits) {
            return eachBit(bits, rows, (i, b) -> {
                out.set(i, b);
                return true;
            });
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
