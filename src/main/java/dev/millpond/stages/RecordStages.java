package dev.millpond.stages;

import dev.millpond.config.FilterValues;
import dev.millpond.config.RecordHandlingConfig;
import dev.millpond.observability.MillpondMetrics;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The record-handling stages in the original's order, as the pump calls them: per poll batch, typed-column coercion →
 * keep filter → drop filter; per flush, the pre-write sort. Stages whose variables are unset are absent and cost
 * nothing. Single-threaded: the pump thread is the only caller.
 */
public final class RecordStages {
    private final TypedColumnCoercion coercion;
    private final KeepFilter keep;
    private final DropFilter drop;
    private final PreWriteSort sort;

    /** Stages from the static configuration; the keep filter reads MILLPOND_FILTER_VALUES. */
    public RecordStages(RecordHandlingConfig config, MillpondMetrics metrics, BufferAllocator allocator) {
        this(config, config.keep().map(k -> staticSet(k.values())).orElse(null), metrics,
                allocator);
    }

    /**
     * Stages whose keep filter reads its allowlist from {@code includeSet} on every batch (a publisher may replace
     * the snapshot at any time). {@code includeSet} is ignored when no keep filter is configured.
     */
    public RecordStages(RecordHandlingConfig config, Supplier<FilterValues> includeSet, MillpondMetrics metrics,
                        BufferAllocator allocator) {
        TypedColumnCoercion c = new TypedColumnCoercion(config.typedColumns(), metrics, allocator);
        this.coercion = c.isNoop() ? null : c;
        this.keep = config.keep().map(k -> new KeepFilter(k.field(), includeSet, metrics, allocator)).orElse(null);
        this.drop = config.drop().map(d -> new DropFilter(d.field(), d.values(), metrics, allocator)).orElse(null);
        PreWriteSort s = new PreWriteSort(config.sortBy(), metrics, allocator);
        this.sort = s.isNoop() ? null : s;
    }

    private static Supplier<FilterValues> staticSet(FilterValues set) {
        return () -> set;
    }

    /** True when no stage is configured: the pump may skip both calls. */
    public boolean isNoop() {
        return coercion == null && keep == null && drop == null && sort == null;
    }

    /** True when only the per-batch stages are all disabled. */
    public boolean isPerPollBatchNoop() {
        return coercion == null && keep == null && drop == null;
    }

    /**
     * Coerce → keep → drop one converted poll batch. Takes ownership of {@code batch} (closed here unless returned)
     * and returns a root the caller owns — possibly the same one, possibly with 0 rows (same schema). On an
     * exception every root this call owned is closed.
     */
    public VectorSchemaRoot applyPerPollBatch(VectorSchemaRoot batch) {
        VectorSchemaRoot current = batch;
        try {
            if (coercion != null) {
                current = coercion.apply(current);
            }
            if (keep != null) {
                current = keep.apply(current);
            }
            if (drop != null) {
                current = drop.apply(current);
            }
            return current;
        } catch (RuntimeException e) {
            // A stage that throws leaves its input intact, and that input is ours.
            current.close();
            throw e;
        }
    }

    /**
     * The pre-write sort of one flush. {@code sameSchemaBatches} (the unified batches, one schema) stay owned by
     * the caller. Returns one new root with every row of the batches, concatenated and sorted, owned by the caller;
     * or empty when sorting is disabled or skipped (missing key, unsortable type), and the caller writes its
     * batches unchanged.
     */
    public Optional<VectorSchemaRoot> sortForWrite(List<VectorSchemaRoot> sameSchemaBatches) {
        return sort == null ? Optional.empty() : sort.sort(sameSchemaBatches);
    }
}
