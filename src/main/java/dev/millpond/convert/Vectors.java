package dev.millpond.convert;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/** Package-private helpers that build vectors straight into Arrow buffers. */
final class Vectors {
    private Vectors() {}

    static final ArrowType BIGINT = new ArrowType.Int(64, true);
    static final ArrowType DOUBLE = new ArrowType.FloatingPoint(org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE);
    static final ArrowType BOOL = ArrowType.Bool.INSTANCE;
    static final ArrowType VARCHAR = ArrowType.Utf8.INSTANCE;

    /** Marks a null row in a span array. */
    static final long NULL_SPAN = -1L;

    static long span(int offset, int length) {
        return ((long) offset << 32) | (length & 0xFFFFFFFFL);
    }

    static int spanOffset(long span) {
        return (int) (span >>> 32);
    }

    static int spanLength(long span) {
        return (int) span;
    }

    static Field nullableField(String name, ArrowType type) {
        return new Field(name, FieldType.nullable(type), null);
    }

    /**
     * Builds a VARCHAR vector of {@code rows} values; {@code spans[i]} is {@link #NULL_SPAN} or an
     * (offset, length) slice of {@code text}.
     */
    static VarCharVector varChar(Field field, BufferAllocator allocator, int rows, ByteBuf text, long[] spans) {
        long total = 0;
        for (int i = 0; i < rows; i++) {
            long s = spans[i];
            if (s != NULL_SPAN) {
                total += spanLength(s);
            }
        }
        if (total > Integer.MAX_VALUE) {
            throw new IllegalStateException("column " + field.getName() + " holds more than 2 GiB of text");
        }
        VarCharVector v = (VarCharVector) field.createVector(allocator);
        try {
            v.allocateNew(Math.max(total, 1), rows);
            ArrowBuf offsets = v.getOffsetBuffer();
            ArrowBuf data = v.getDataBuffer();
            ArrowBuf validity = v.getValidityBuffer();
            validity.setZero(0, validity.capacity());
            int pos = 0;
            offsets.setInt(0, 0);
            for (int i = 0; i < rows; i++) {
                long s = spans[i];
                if (s != NULL_SPAN) {
                    int len = spanLength(s);
                    data.setBytes(pos, text.data, spanOffset(s), len);
                    pos += len;
                    BitVectorHelper.setBit(validity, i);
                }
                offsets.setInt((long) (i + 1) * 4, pos);
            }
            v.setLastSet(rows - 1);
            v.setValueCount(rows);
            return v;
        } catch (RuntimeException | Error e) {
            v.close();
            throw e;
        }
    }

    /** A vector of {@code rows} nulls of the field's type. */
    static FieldVector allNulls(Field field, BufferAllocator allocator, int rows) {
        FieldVector v = field.createVector(allocator);
        try {
            v.setInitialCapacity(rows);
            v.allocateNew();
            for (ArrowBuf b : v.getFieldBuffers()) {
                b.setZero(0, b.capacity());
            }
            v.setValueCount(rows);
            return v;
        } catch (RuntimeException | Error e) {
            v.close();
            throw e;
        }
    }
}
