package dev.millpond.stages;

import dev.millpond.vocabulary.UuidVector;
import dev.millpond.config.FilterValues;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.SkipReason;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * MILLPOND_FILTER_DROP_FIELD_NAME: drops rows whose value is in MILLPOND_FILTER_DROP_VALUES
 * ({@code filter_dropped}). Runs after the keep filter (keep ∩ ¬drop). Fails open, the opposite of the keep filter:
 * a missing field, an unsupported column type or values that do not cast keep the batch unchanged with one warning
 * per pattern, so a schema hiccup cannot turn a denylist into data loss. Null values are kept.
 */
final class DropFilter {
    private static final System.Logger LOG = System.getLogger(DropFilter.class.getName());

    private final String field;
    private final FilterValueSet values;
    private final MillpondMetrics metrics;
    private final BufferAllocator allocator;
    private final OnceWarnings warnings = new OnceWarnings(LOG);
    private final InvalidUuidValues invalidValues;

    DropFilter(String field, FilterValues values, MillpondMetrics metrics, BufferAllocator allocator) {
        this.field = field;
        this.values = new FilterValueSet(values);
        this.metrics = metrics;
        this.allocator = allocator;
        this.invalidValues = new InvalidUuidValues("MILLPOND_FILTER_DROP_FIELD_NAME", field, metrics, warnings);
    }

    /** Takes ownership of {@code batch}; returns it when nothing is dropped, else a new root (caller owns). */
    VectorSchemaRoot apply(VectorSchemaRoot batch) {
        int rows = batch.getRowCount();
        if (rows == 0) {
            return batch;
        }
        FieldVector column = batch.getVector(field);
        if (column == null) {
            warnings.warn("missing", () -> "drop filter field '" + field + "' is missing from a batch;"
                    + " keeping the batch unchanged (the filter fails open)");
            return batch;
        }
        FilterValueSet.Resolution resolution = values.resolve(column);
        if (column instanceof UuidVector) {
            invalidValues.report(values);
        }
        if (resolution instanceof FilterValueSet.Resolution.Unsupported u) {
            warnings.warn("unsupported\u0000" + column.getField().getType(), () -> "drop filter on '" + field
                    + "' keeps the batch unchanged (fails open): " + u.reason());
            return batch;
        }
        if (resolution instanceof FilterValueSet.Resolution.NoUsableValues) {
            return batch;
        }
        FilterValueSet.RowMatch match = ((FilterValueSet.Resolution.Ready) resolution).match();
        int[] kept = new int[rows];
        int keptCount = 0;
        for (int i = 0; i < rows; i++) {
            if (column.isNull(i) || match.matchedLabel(i) == null) {
                kept[keptCount++] = i;
            }
        }
        metrics.recordsSkipped(SkipReason.FILTER_DROPPED, rows - keptCount);
        return Selected.keep(batch, kept, keptCount, allocator);
    }
}
