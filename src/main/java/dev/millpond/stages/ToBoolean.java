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
 * boolean: exactly {@code true}, {@code false}, {@code 1}, {@code 0} from text (the original's list, case-sensitive;
 * conversion itself writes bools as lower-case text), anything else → null; numbers: non-zero → true.
 */
final class ToBoolean extends ColumnCoercion {
    static final ArrowType TYPE = ArrowType.Bool.INSTANCE;

    @Override
    boolean isTarget(Field field) {
        return TYPE.equals(field.getType());
    }

    @Override
    FieldVector newTarget(String name, BufferAllocator allocator) {
        return new BitVector(name, allocator);
    }

    @Override
    int fill(FieldVector source, FieldVector target, int rows) {
        BitVector out = (BitVector) target;
        int nulled = 0;
        if (source instanceof VarCharVector text) {
            Utf8Slice slice = new Utf8Slice();
            for (int i = 0; i < rows; i++) {
                if (!text.isNull(i)) {
                    int v = parse(slice.load(text, i));
                    if (v < 0) {
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
                    out.set(i, ints.get(i) != 0 ? 1 : 0);
                }
            }
            return 0;
        }
        if (source instanceof Float8Vector doubles) {
            for (int i = 0; i < rows; i++) {
                if (!doubles.isNull(i)) {
                    out.set(i, doubles.get(i) != 0 ? 1 : 0);
                }
            }
            return 0;
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
