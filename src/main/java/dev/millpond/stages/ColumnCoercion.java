package dev.millpond.stages;

import dev.millpond.config.PinnedType;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Turns one column into a pinned target type. Implementations never throw on data: a value they cannot convert
 * becomes null and is counted, and a source type they do not know is nulled whole (docs/decisions.md,
 * "A typed pin never crashes").
 */
abstract class ColumnCoercion {

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
    abstract boolean isTarget(Field field);

    /** A new target-typed column holding {@code source}'s values; {@code source} stays owned by the caller. */
    final Coerced apply(FieldVector source, BufferAllocator allocator) {
        FieldVector target = newTarget(source.getName(), allocator);
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

    abstract FieldVector newTarget(String name, BufferAllocator allocator);

    /**
     * Write rows {@code 0..rows-1} of {@code source} into {@code target} (allocated, unset rows read null) and
     * return how many non-null source values could not be converted.
     */
    abstract int fill(FieldVector source, FieldVector target, int rows);

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
