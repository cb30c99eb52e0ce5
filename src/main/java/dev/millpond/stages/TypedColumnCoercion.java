package dev.millpond.stages;

import dev.millpond.config.PinnedType;
import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * MILLPOND_TYPED_COLUMNS: every configured column that is present and not already its target type is rewritten
 * as the target type, so the batch matches the destination column and the insert needs no DDL. Absent columns
 * are left absent. Per column per batch exactly one of {@code columns_coerced_total{target_type}} (nothing nulled)
 * or {@code errors_total{type="column_coercion"}} (≥ 1 value nulled) moves.
 */
final class TypedColumnCoercion {
    private static final System.Logger LOG = System.getLogger(TypedColumnCoercion.class.getName());

    private final Map<String, PinnedType> pins;
    private final Map<PinnedType, ColumnCoercion> coercions = new LinkedHashMap<>();
    private final MillpondMetrics metrics;
    private final BufferAllocator allocator;
    private final OnceWarnings warnings = new OnceWarnings(LOG);

    TypedColumnCoercion(Map<String, PinnedType> pins, MillpondMetrics metrics, BufferAllocator allocator) {
        this.pins = Map.copyOf(pins);
        this.metrics = metrics;
        this.allocator = allocator;
        for (PinnedType t : pins.values()) {
            coercions.computeIfAbsent(t, ColumnCoercion::to);
        }
    }

    boolean isNoop() {
        return pins.isEmpty();
    }

    /**
     * Takes ownership of {@code batch}; returns it, or a root that adopted its untouched vectors (caller owns it).
     * On an exception {@code batch} is left intact for the caller to close.
     */
    VectorSchemaRoot apply(VectorSchemaRoot batch) {
        List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors());
        List<FieldVector> replaced = new ArrayList<>();
        try {
            for (int c = 0; c < vectors.size(); c++) {
                FieldVector source = vectors.get(c);
                PinnedType target = pins.get(source.getName());
                if (target == null) {
                    continue;
                }
                ColumnCoercion coercion = coercions.get(target);
                if (coercion.isTarget(source.getField())) {
                    continue;
                }
                Coerced coerced = coercion.apply(source, allocator);
                vectors.set(c, coerced.vector());
                replaced.add(source);
                count(source, target, coerced.nulled());
            }
        } catch (RuntimeException e) {
            for (int c = 0; c < vectors.size(); c++) {
                if (vectors.get(c) != batch.getFieldVectors().get(c)) {
                    vectors.get(c).close();
                }
            }
            throw e;
        }
        if (replaced.isEmpty()) {
            return batch;
        }
        int rows = batch.getRowCount();
        replaced.forEach(FieldVector::close);
        // The new root adopts the untouched vectors of the old one; the old root object itself holds no memory.
        VectorSchemaRoot out = new VectorSchemaRoot(vectors);
        out.setRowCount(rows);
        return out;
    }

    private void count(FieldVector source, PinnedType target, int nulled) {
        if (nulled == 0) {
            metrics.columnsCoerced(target.wireName());
            return;
        }
        metrics.error(ErrorType.COLUMN_COERCION);
        warnings.warn(source.getName() + '\u0000' + source.getField().getType() + '\u0000' + target,
                () -> "MILLPOND_TYPED_COLUMNS: nulled values of column '" + source.getName() + "' ("
                        + source.getField().getType() + ") that do not convert to " + target.wireName()
                        + " (first batch: " + nulled + " of " + source.getValueCount() + ")");
    }
}
