package dev.millpond.stages;

import dev.millpond.vocabulary.UuidType;
import dev.millpond.vocabulary.UuidVector;
import dev.millpond.vocabulary.UuidText;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * uuid: text in one of {@link UuidText}'s accepted shapes; a {@code fixed_size_binary(16)} column is adopted as is
 * (it would land as a BLOB on DuckLake otherwise); a binary column is adopted value by value when 16 bytes long.
 * Everything else is nulled.
 */
final class ToUuid extends ColumnCoercion {

    ToUuid() {
        super(UuidType.INSTANCE, UuidVector::new);
    }

    /** Any uuid extension column, whatever instance of the type it carries. */
    @Override
    boolean isTarget(Field field) {
        return field.getType() instanceof UuidType;
    }

    @Override
    int fill(FieldVector source, FieldVector target, int rows) {
        UuidVector out = (UuidVector) target;
        if (source instanceof VarCharVector text) {
            return fromText(text, out, rows);
        }
        if (source instanceof FixedSizeBinaryVector fixed && fixed.getByteWidth() == UuidType.BYTE_WIDTH) {
            for (int i = 0; i < rows; i++) {
                if (!fixed.isNull(i)) {
                    out.getUnderlyingVector().set(i, fixed.get(i));
                }
            }
            return 0;
        }
        if (source instanceof BaseVariableWidthVector binary && !(source instanceof VarCharVector)) {
            int nulled = 0;
            for (int i = 0; i < rows; i++) {
                if (!binary.isNull(i)) {
                    byte[] bytes = binary.get(i);
                    if (bytes.length == UuidType.BYTE_WIDTH) {
                        out.getUnderlyingVector().set(i, bytes);
                    } else {
                        nulled++;
                    }
                }
            }
            return nulled;
        }
        return nullAll(source, rows);
    }

    /** The hot path: no allocation per value. */
    private static int fromText(VarCharVector text, UuidVector out, int rows) {
        long[] bits = new long[2];
        return eachText(text, rows, (i, s) -> {
            boolean valid = UuidText.parseInto(s, bits);
            if (valid) {
                out.setSafe(i, bits[0], bits[1]);
            }
            return valid;
        });
    }
}
