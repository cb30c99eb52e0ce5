package dev.millpond.sinks;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;

/**
 * One flush: Arrow batches that all share {@link #schema()}, and the Kafka offset ranges whose records they came from
 * ({@code ranges}; empty when the caller does not track offsets), and the records of those ranges that could not
 * become rows ({@code rejects}), which a sink that can keeps in the same commit. A replay of kept rejects has no
 * ranges (its records are not new Kafka records) and names the rejects-table rows it lands again ({@code replayed}):
 * a sink that keeps rejects removes them in the same commit, before it stores the flush's own rejects, which may be
 * the same records rejected again. The batches stay owned by whoever built the FlushBatch (the pump's buffer); a sink
 * reads them, as many times as its retries need, and closes nothing. A flush may have rejects and no batches.
 */
public record FlushBatch(Schema schema, List<VectorSchemaRoot> batches, long rows, List<OffsetRange> ranges,
                         List<RejectedRecord> rejects, List<StoredReject> replayed) {

    public FlushBatch(Schema schema, List<VectorSchemaRoot> batches, long rows, List<OffsetRange> ranges,
                      List<RejectedRecord> rejects) {
        this(schema, batches, rows, ranges, rejects, List.of());
    }

    public FlushBatch(Schema schema, List<VectorSchemaRoot> batches, long rows, List<OffsetRange> ranges) {
        this(schema, batches, rows, ranges, List.of());
    }

    /** A flush that carries no offsets (sink tests, benchmarks). */
    public FlushBatch(Schema schema, List<VectorSchemaRoot> batches, long rows) {
        this(schema, batches, rows, List.of());
    }

    public FlushBatch {
        batches = List.copyOf(batches);
        ranges = List.copyOf(ranges);
        rejects = List.copyOf(rejects);
        replayed = List.copyOf(replayed);
        for (VectorSchemaRoot b : batches) {
            if (!b.getSchema().equals(schema)) {
                throw new IllegalArgumentException("every batch of a flush must share one schema");
            }
        }
    }

    /** The same flush (offsets, rejects, replayed rows) over other batches of the same rows. */
    public FlushBatch withBatches(Schema otherSchema, List<VectorSchemaRoot> otherBatches) {
        return new FlushBatch(otherSchema, otherBatches, rows, ranges, rejects, replayed);
    }

    /** This flush as a replay: no offsets, and the rejects-table rows it lands again. */
    public FlushBatch replaying(List<StoredReject> rows) {
        return new FlushBatch(schema, batches, this.rows, List.of(), rejects, rows);
    }
}
