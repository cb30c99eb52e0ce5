package dev.millpond.stages;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/** The filters' common ending: keep the chosen rows of a batch they own. */
final class Selected {
    private Selected() {
    }

    /**
     * Takes ownership of {@code batch}. Every row kept: the batch itself. Otherwise a new root of the kept rows
     * (possibly 0 rows, same schema) and {@code batch} is closed. On an exception {@code batch} is
     * left intact for the caller to close.
     */
    static VectorSchemaRoot keep(VectorSchemaRoot batch, int[] rows, int count, BufferAllocator allocator) {
        if (count == batch.getRowCount()) {
            return batch;
        }
        VectorSchemaRoot out = RowSelection.select(batch, rows, count, allocator);
        batch.close();
        return out;
    }
}
