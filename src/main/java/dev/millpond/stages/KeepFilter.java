package dev.millpond.stages;

import dev.millpond.vocabulary.UuidVector;
import dev.millpond.config.FilterValues;

import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.SkipReason;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * MILLPOND_FILTER_KEEP_FIELD_NAME: keeps rows whose field value is in the current allowlist snapshot ({@link FilterValues}). An allowlist
 * that cannot evaluate fails closed (drops the rows):
 * <ul>
 *   <li>{@code filter_field_missing}: column absent, value null, or column type not filterable (or the set does
 *       not cast to it);</li>
 *   <li>{@code filter_excluded}: a value not in the set;</li>
 *   <li>{@code filter_value_invalid}: a uuid column and no value of the set is a UUID.</li>
 * </ul>
 * Kept rows count on {@code filter_matched_total{value}} per distinct value per batch.
 */
final class KeepFilter {
    private static final System.Logger LOG = System.getLogger(KeepFilter.class.getName());

    private final String field;
    private final Supplier<FilterValues> includeSet;
    private final MillpondMetrics metrics;
    private final BufferAllocator allocator;
    private final OnceWarnings warnings = new OnceWarnings(LOG);
    private final InvalidUuidValues invalidValues;

    KeepFilter(String field, Supplier<FilterValues> includeSet, MillpondMetrics metrics, BufferAllocator allocator) {
        this.field = field;
        this.includeSet = includeSet;
        this.metrics = metrics;
        this.allocator = allocator;
        this.invalidValues = new InvalidUuidValues("MILLPOND_FILTER_KEEP_FIELD_NAME", field, metrics, warnings);
    }

    /** Takes ownership of {@code batch}; returns it when every row is kept, else a new root (caller owns). */
    VectorSchemaRoot apply(VectorSchemaRoot batch) {
        int rows = batch.getRowCount();
        if (rows == 0) {
            return batch;
        }
        FieldVector column = batch.getVector(field);
        if (column == null) {
            return dropAll(batch, SkipReason.FILTER_FIELD_MISSING);
        }
        // Read afresh for every batch, and not kept: a replaced allowlist must not stay alive here while the
        // topic is idle.
        FilterValueSet values = new FilterValueSet(includeSet.get());
        FilterValueSet.Resolution resolution = values.resolve(column);
        if (column instanceof UuidVector) {
            invalidValues.report(values);
        }
        if (resolution instanceof FilterValueSet.Resolution.Unsupported u) {
            warnings.warn("unsupported\u0000" + column.getField().getType(), () -> "keep filter on '" + field
                    + "' drops every row: " + u.reason());
            return dropAll(batch, SkipReason.FILTER_FIELD_MISSING);
        }
        if (resolution instanceof FilterValueSet.Resolution.NoUsableValues) {
            return dropAll(batch, SkipReason.FILTER_VALUE_INVALID);
        }
        FilterValueSet.RowMatch match = ((FilterValueSet.Resolution.Ready) resolution).match();
        int[] kept = new int[rows];
        int keptCount = 0;
        long nulls = 0;
        Map<String, Long> matched = new HashMap<>();
        for (int i = 0; i < rows; i++) {
            if (column.isNull(i)) {
                nulls++;
                continue;
            }
            String label = match.matchedLabel(i);
            if (label != null) {
                kept[keptCount++] = i;
                matched.merge(label, 1L, Long::sum);
            }
        }
        metrics.recordsSkipped(SkipReason.FILTER_FIELD_MISSING, nulls);
        metrics.recordsSkipped(SkipReason.FILTER_EXCLUDED, rows - keptCount - nulls);
        matched.forEach(metrics::filterMatched);
        return Selected.keep(batch, kept, keptCount, allocator);
    }

    private VectorSchemaRoot dropAll(VectorSchemaRoot batch, SkipReason reason) {
        metrics.recordsSkipped(reason, batch.getRowCount());
        return Selected.keep(batch, new int[0], 0, allocator);
    }
}
