package dev.millpond.stages;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * boolean: exactly {@code true}, {@code false}, {@code 1}, {@code 0} from text (the original's list, case-sensitive;
 * conversion itself writes bools as lower-case text), anything else → null; numbers: non-zero → true.
 */
final class ToBoolean extends ColumnCoercion {
    static final ArrowType TYPE = ArrowType.Bool.INSTANCE;

    ToBoolean() {
        super(TYPE, BitVector::new);
    }

    @Override
    int fill(FieldVector source, FieldVector target, int rows) {
        BitVector out = (BitVector) target;
        if (source instanceof VarCharVector text) {
            return eachText(text, rows, (i, s) -> {
                int v = parse(s);
                if (v >= 0) {
                    out.set(i, v);
                }
                return v >= 0;
            });
        }
        if (source instanceof BigIntVector ints) {
            return eachLong(ints, rows, (i, v) -> {
                out.set(i, v != 0 ? 1 : 0);
                return true;
            });
        }
        if (source instanceof Float8Vector doubles) {
            return eachDouble(doubles, rows, (i, d) -> {
                out.set(i, d != 0 ? 1 : 0);
                return true;
            });
        }
        return nullAll(source, rows);
    }

    /** 1 for true, 0 for false, -1 when refused. */
    static int parse(CharSequence s) {
        String t = s.toString();
        return switch (t) {
            case "true", "1" -> 1;
            case "false", "0" -> 0;
            default -> -1;
        };
    }
}
