package dev.millpond.stages;

import dev.millpond.config.PinnedType;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Turns one column into a pinned target type. Implementations never throw on data: a value they cannot convert
 * becomes null and is counted, and a source type they do not know is nulled whole (docs/decisions.md,
 * "A typed pin never crashes").
 */
abstract class ColumnCoercion {

    /** Makes an empty column of the target type. */
    @FunctionalInterface
    interface NewColumn {
        FieldVector create(String name, BufferAllocator allocator);
    }

    private final ArrowType type;
    private final NewColumn newColumn;

    /** @param type the target type; a column already of it passes through untouched */
    ColumnCoercion(ArrowType type, NewColumn newColumn) {
        this.type = type;
        this.newColumn = newColumn;
    }

    /** The coercion for {@code target}. */
    static ColumnCoercion to(PinnedType target) {
        return switch (target) {
            case TIMESTAMPTZ -> new ToTimestamptz();
            case BIGINT -> new ToBigint();
            case DOUBLE -> new ToDouble();
            case BOOLEAN -> new ToBoolean();
            case VARCHAR -> new ToVarchar();
            case UUID -> new ToUuid();
        };
    }

    /** Whether a column of this field already has the target type and is passed through untouched. */
    boolean isTarget(Field field) {
        return type.equals(field.getType());
    }

    /** A new target-typed column holding {@code source}'s values; {@code source} stays owned by the caller. */
    final Coerced apply(FieldVector source, BufferAllocator allocator) {
        FieldVector target = newColumn.create(source.getName(), allocator);
        try {
            int rows = source.getValueCount();
            target.setInitialCapacity(rows);
            target.allocateNew();
            int nulled = fill(source, target, rows);
            target.setValueCount(rows);
            return new Coerced(target, nulled);
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    /**
     * Write rows {@code 0..rows-1} of {@code source} into {@code target} (allocated, unset rows read null) and
     * return how many non-null source values could not be converted.
     */
    abstract int fill(FieldVector source, FieldVector target, int rows);

    /** Writes one converted value into row {@code row} of the target; false when the value is refused. */
    @FunctionalInterface
    interface TextCell {
        boolean set(int row, CharSequence value);
    }

    @FunctionalInterface
    interface LongCell {
        boolean set(int row, long value);
    }

    @FunctionalInterface
    interface DoubleCell {
        boolean set(int row, double value);
    }

    /**
     * The walks every coercion shares: each non-null value of the source column handed to {@code cell}, which
     * writes the target row; returns how many values it refused. Text is read through one reused
     * {@link Utf8Slice}, so nothing is allocated per value.
     */
    static int eachText(VarCharVector text, int rows, TextCell cell) {
        Utf8Slice slice = new Utf8Slice();
        int refused = 0;
        for (int i = 0; i < rows; i++) {
            if (!text.isNull(i) && !cell.set(i, slice.load(text, i))) {
                refused++;
            }
        }
        return refused;
    }

    static int eachLong(BigIntVector ints, int rows, LongCell cell) {
        int refused = 0;
        for (int i = 0; i < rows; i++) {
            if (!ints.isNull(i) && !cell.set(i, ints.get(i))) {
                refused++;
            }
        }
        return refused;
    }

    static int eachDouble(Float8Vector doubles, int rows, DoubleCell cell) {
        int refused = 0;
        for (int i = 0; i < rows; i++) {
            if (!doubles.isNull(i) && !cell.set(i, doubles.get(i))) {
                refused++;
            }
        }
        return refused;
    }

    /** A bool column's values as 1 and 0. */
    static int eachBit(BitVector bits, int rows, LongCell cell) {
        int refused = 0;
        for (int i = 0; i < rows; i++) {
            if (!bits.isNull(i) && !cell.set(i, bits.get(i))) {
                refused++;
            }
        }
        return refused;
    }

    /** The fallback for a source type with no conversion: every value is nulled. */
    static int nullAll(FieldVector source, int rows) {
        return rows - nullCount(source, rows);
    }

    static int nullCount(FieldVector source, int rows) {
        int nulls = 0;
        for (int i = 0; i < rows; i++) {
            if (source.isNull(i)) {
                nulls++;
            }
        }
        return nulls;
    }
}
