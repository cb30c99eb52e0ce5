package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.FlushBatch;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.ArrayList;
import java.util.List;

/**
 * A flush of wide rows cut into several INSERTs of one transaction. DuckDB buffers a whole parquet row group per
 * thread before it compresses and writes it, and the row group is a number of rows (8,192 on the writer's table): at
 * 8 KB a row that is 64 MB per thread, and a flush smaller than a row group is buffered whole. DuckDB takes the row
 * group only from the lake's catalog options, which are shared with every other writer of the lake, so the writer
 * bounds it from its own side instead: an INSERT ends its last row group, so no INSERT carrying at most
 * {@code sliceBytes} buffers more than that. Rows that fit ({@code rowGroupRows} of them within {@code sliceBytes},
 * PostHog events of ~1 KB among them) go in one INSERT as before, so their files are not split.
 */
final class InsertSlices {

    private InsertSlices() {
    }

    /**
     * The flush's batches grouped, in order, into slices of at most {@code sliceBytes} of Arrow buffers (a batch is
     * never split, so a single larger batch is a slice of its own). One slice, the flush itself, when its rows are
     * narrow enough. Slices carry rows only: the flush's offset ranges and rejects are written once, beside them.
     */
    static List<FlushBatch> of(FlushBatch flush, long rowGroupRows, long sliceBytes) {
        if (flush.batches().size() < 2 || flush.rows() <= 0) {
            return List.of(flush);
        }
        long[] bytes = new long[flush.batches().size()];
        long total = 0;
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = bufferBytes(flush.batches().get(i));
            total += bytes[i];
        }
        if ((double) total / flush.rows() * Math.min(rowGroupRows, flush.rows()) <= sliceBytes) {
            return List.of(flush);
        }
        List<FlushBatch> slices = new ArrayList<>();
        List<VectorSchemaRoot> current = new ArrayList<>();
        long currentBytes = 0;
        long currentRows = 0;
        for (int i = 0; i < bytes.length; i++) {
            VectorSchemaRoot batch = flush.batches().get(i);
            if (!current.isEmpty() && currentBytes + bytes[i] > sliceBytes) {
                slices.add(new FlushBatch(flush.schema(), current, currentRows));
                current = new ArrayList<>();
                currentBytes = 0;
                currentRows = 0;
            }
            current.add(batch);
            currentBytes += bytes[i];
            currentRows += batch.getRowCount();
        }
        slices.add(new FlushBatch(flush.schema(), current, currentRows));
        return slices;
    }

    static long bufferBytes(VectorSchemaRoot batch) {
        long bytes = 0;
        for (FieldVector v : batch.getFieldVectors()) {
            bytes += v.getBufferSize();
        }
        return bytes;
    }
}
