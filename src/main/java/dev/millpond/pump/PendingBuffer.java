package dev.millpond.pump;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
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
    private long allocated;
    private long records;

    void add(VectorSchemaRoot batch, long nbytes) {
        batches.add(batch);
        bytes += nbytes;
        allocated += allocatedBytes(batch);
        records += batch.getRowCount();
    }

    /** What the batches really hold in Arrow memory (buffer capacities, rounding included), for the memory budget. */
    long allocated() {
        return allocated;
    }

    private static long allocatedBytes(VectorSchemaRoot batch) {
        long n = 0;
        for (FieldVector v : batch.getFieldVectors()) {
            for (ArrowBuf b : v.getFieldBuffers()) {
                n += b.capacity();
            }
            for (FieldVector child : v.getChildrenFromFields()) {
                for (ArrowBuf b : child.getFieldBuffers()) {
                    n += b.capacity();
                }
            }
        }
        return n;
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
        allocated = 0;
        records = 0;
        return out;
    }

    void clear() {
        batches.forEach(VectorSchemaRoot::close);
        batches.clear();
        bytes = 0;
        allocated = 0;
        records = 0;
    }

    @Override
    public void close() {
        clear();
    }
}
