package dev.millpond.stages;

import dev.millpond.vocabulary.UuidVector;
import dev.millpond.vocabulary.DoubleText;

import java.nio.charset.StandardCharsets;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * varchar: each value's text as conversion would write it — bools {@code true}/{@code false} (lower case), integers
 * in decimal, doubles in the same shortest form as conversion ({@code 1.0}, {@code 1e+20}), uuid as canonical
 * lower-case text, UTC timestamps as {@code YYYY-MM-DD HH:MM:SS.ffffffZ}. Other types (binary) are nulled.
 */
final class ToVarchar extends ColumnCoercion {
    static final ArrowType TYPE = ArrowType.Utf8.INSTANCE;
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

    ToVarchar() {
        super(TYPE, VarCharVector::new);
    }

    @Override
    int fill(FieldVector source, FieldVector target, int rows) {
        VarCharVector out = (VarCharVector) target;
        if (source instanceof BitVector bits) {
            return eachBit(bits, rows, (i, b) -> {
                out.setSafe(i, b != 0 ? TRUE : FALSE);
                return true;
            });
        }
        if (source instanceof BigIntVector
                || source instanceof Float8Vector
                || source instanceof UuidVector
                || source instanceof TimeStampMicroTZVector) {
            for (int i = 0; i < rows; i++) {
                if (!source.isNull(i)) {
                    out.setSafe(i, text(source, i).getBytes(StandardCharsets.UTF_8));
                }
            }
            return 0;
        }
        return nullAll(source, rows);
    }

    private static String text(FieldVector source, int i) {
        if (source instanceof BigIntVector v) {
            return Long.toString(v.get(i));
        }
        if (source instanceof Float8Vector v) {
            return DoubleText.of(v.get(i));
        }
        if (source instanceof UuidVector v) {
            return (String) v.getObject(i);
        }
        long micros = ((TimeStampMicroTZVector) source).get(i);
        java.time.Instant instant = java.time.Instant.EPOCH.plus(micros, java.time.temporal.ChronoUnit.MICROS);
        return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS'Z'")
                .withZone(java.time.ZoneOffset.UTC).format(instant);
    }
}
