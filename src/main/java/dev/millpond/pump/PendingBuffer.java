package dev.millpond.pump;

import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.ArrayList;
import java.util.List;

/**
 * Arrow batches waiting for the next flush. Size is the sum of each poll batch's Arrow bytes as the original measures
 * it (not the concatenated or parquet size); the buffer owns the batches until {@link #clear()}.
 */
final class PendingBuffer implements AutoCloseable {

    private final List<VectorSchemaRoot> batches = new ArrayList<>();
    private long bytes;
    private long records;

    void add(VectorSchemaRoot batch, long nbytes) {
        batches.add(batch);
        bytes += nbytes;
        records += batch.getRowCount();
    }

    List<VectorSchemaRoot> batches() {
        return batches;
    }

    long bytes() {
        return bytes;
    }

    long records() {
        return records;
    }

    /** Hands the batches over (the caller now owns them) and empties the buffer. */
    List<VectorSchemaRoot> drain() {
        List<VectorSchemaRoot> out = new ArrayList<>(batches);
        batches.clear();
        bytes = 0;
        records = 0;
        return out;
    }

    void clear() {
        batches.forEach(VectorSchemaRoot::close);
        batches.clear();
        bytes = 0;
        records = 0;
    }

    @Override
    public void close() {
        clear();
    }
}
