package dev.millpond.stages;

import java.util.regex.Pattern;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * double: decimal text ({@code 2.5}, {@code -1e3}, {@code .5}) and {@code inf}/{@code nan} spellings; int64 → double
 * (lossy above 2^53, as any double column); bool → 1.0/0.0. Java-only spellings ({@code 1d}, {@code 0x1p3}) are
 * refused, so the accepted set does not depend on {@code Double.parseDouble}'s extensions.
 */
final class ToDouble extends ColumnCoercion {
    static final ArrowType TYPE = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?");
    private static final Pattern SPECIAL = Pattern.compile("[+-]?(?i:inf|infinity|nan)");

    @Override
    boolean isTarget(Field field) {
        return TYPE.equals(field.getType());
    }

    @Override
    FieldVector newTarget(String name, BufferAllocator allocator) {
        return new Float8Vector(name, allocator);
    }

    @Override
    int fill(FieldVector source, FieldVector target, int rows) {
        Float8Vector out = (Float8Vector) target;
        int nulled = 0;
        if (source instanceof VarCharVector text) {
            Utf8Slice slice = new Utf8Slice();
            for (int i = 0; i < rows; i++) {
                if (!text.isNull(i)) {
                    Double v = parse(slice.load(text, i));
                    if (v == null) {
                        nulled++;
                    } else {
                        out.set(i, v);
                    }
                }
            }
            return nulled;
        }
        if (source instanceof BigIntVector ints) {
            for (int i = 0; i < rows; i++) {
                if (!ints.isNull(i)) {
                    out.set(i, (double) ints.get(i));
                }
            }
            return 0;
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
