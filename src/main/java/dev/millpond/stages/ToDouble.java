package dev.millpond.stages;

import java.util.regex.Pattern;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * double: decimal text ({@code 2.5}, {@code -1e3}, {@code .5}) and {@code inf}/{@code nan} spellings; int64 → double
 * (lossy above 2^53, as any double column); bool → 1.0/0.0. Java-only spellings ({@code 1d}, {@code 0x1p3}) are
 * refused, so the accepted set does not depend on {@code Double.parseDouble}'s extensions.
 */
final class ToDouble extends ColumnCoercion {
    static final ArrowType TYPE = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?");
    private static final Pattern SPECIAL = Pattern.compile("[+-]?(?i:inf|infinity|nan)");

    ToDouble() {
        super(TYPE, Float8Vector::new);
    }

    @Override
    int fill(FieldVector source, FieldVector target, int rows) {
        Float8Vector out = (Float8Vector) target;
        if (source instanceof VarCharVector text) {
            return eachText(text, rows, (i, s) -> {
                Double v = parse(s);
                if (v != null) {
                    out.set(i, v);
                }
                return v != null;
            });
        }
        if (source instanceof BigIntVector ints) {
            return eachLong(ints, rows, (i, v) -> {
                out.set(i, (double) v);
                return true;
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

    static Double parse(CharSequence s) {
        if (DECIMAL.matcher(s).matches()) {
            return Double.parseDouble(s.toString());
        }
        if (SPECIAL.matcher(s).matches()) {
            String t = s.toString().toLowerCase(java.util.Locale.ROOT);
            boolean negative = t.startsWith("-");
            if (t.contains("nan")) {
                return Double.NaN;
            }
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return null;
    }
}
