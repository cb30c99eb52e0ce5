package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.FlushBatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.IOException;

/**
 * A reader over a flush's batches that shares their buffers instead of copying them, so DuckDB can scan them through
 * the Arrow C stream interface. Each scan needs a fresh one (a registered stream is one-shot); closing it leaves the
 * batches intact, since the flush's owner (the pump's buffer) still holds them for a retry.
 */
final class FlushBatchReader extends ArrowReader {

    private final FlushBatch batch;
    private int next;

    FlushBatchReader(FlushBatch batch, BufferAllocator allocator) {
        super(allocator);
        this.batch = batch;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
        // Sets the reader's root up even when a consumer asks for a batch before the schema (DuckDB asks for the
        // schema first; the Arrow C stream contract does not require it).
        prepareLoadNextBatch();
        if (next >= batch.batches().size()) {
            return false;
        }
        try (ArrowRecordBatch recordBatch = new VectorUnloader(batch.batches().get(next++)).getRecordBatch()) {
            loadRecordBatch(recordBatch);
        }
        return true;
    }

    @Override
    public long bytesRead() {
        return 0;
    }

    @Override
    protected void closeReadSource() {
    }

    @Override
    protected Schema readSchema() {
        return batch.schema();
    }
}
