package dev.millpond.testsupport;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Presents one in-memory {@link VectorSchemaRoot} as an {@link ArrowReader}, the shape
 * {@code Data.exportArrayStream} needs to hand a batch to DuckDB. The batch is copied by reference
 * (buffers are retained, not duplicated), and the source root stays owned by the caller.
 */
public final class SingleBatchArrowReader extends ArrowReader {

    private final VectorSchemaRoot source;
    private boolean delivered;

    public SingleBatchArrowReader(BufferAllocator allocator, VectorSchemaRoot source) {
        super(allocator);
        this.source = source;
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
        if (delivered) {
            return false;
        }
        prepareLoadNextBatch();
        try (ArrowRecordBatch batch = new VectorUnloader(source).getRecordBatch()) {
            loadRecordBatch(batch);
        }
        delivered = true;
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
        return source.getSchema();
    }
}
