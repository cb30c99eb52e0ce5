package dev.millpond.convert;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The batches of one flush, all with the same {@link #schema()}. Owns its roots: {@link #close()} releases
 * them, unless they were handed to a reader by {@link #toReader(BufferAllocator)} first.
 */
public final class UnifiedBatches implements AutoCloseable {
    private final Schema schema;
    private List<VectorSchemaRoot> batches;

    UnifiedBatches(Schema schema, List<VectorSchemaRoot> batches) {
        this.schema = schema;
        this.batches = batches;
    }

    /** The one schema every batch has (no fields when there were no rows). */
    public Schema schema() {
        return schema;
    }

    /** The batches, still owned by this object (read-only view; empty after {@link #toReader}). */
    public List<VectorSchemaRoot> batches() {
        return Collections.unmodifiableList(batches);
    }

    /** Total rows over all batches. */
    public long rowCount() {
        long n = 0;
        for (VectorSchemaRoot r : batches) {
            n += r.getRowCount();
        }
        return n;
    }

    /**
     * Moves the batches into an {@link ArrowReader} that yields them one by one with zero-copy transfers
     * (for {@code Data.exportArrayStream}). From then on the reader owns them: closing the reader (which an
     * exported C stream does when its consumer releases it) frees every batch not yet read, and this object
     * becomes empty. The reader's own root is allocated from {@code allocator}.
     */
    public ArrowReader toReader(BufferAllocator allocator) {
        List<VectorSchemaRoot> handed = batches;
        batches = new ArrayList<>();
        return new Reader(allocator, schema, handed);
    }

    @Override
    public void close() {
        List<VectorSchemaRoot> toClose = batches;
        batches = new ArrayList<>();
        try {
            AutoCloseables.close(toClose);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Yields pre-built same-schema roots by transferring their buffers into the reader's root. */
    private static final class Reader extends ArrowReader {
        private final Schema schema;
        private final List<VectorSchemaRoot> pending;
        private int next;

        Reader(BufferAllocator allocator, Schema schema, List<VectorSchemaRoot> pending) {
            super(allocator);
            this.schema = schema;
            this.pending = pending;
        }

        @Override
        public boolean loadNextBatch() throws IOException {
            prepareLoadNextBatch();
            if (next >= pending.size()) {
                return false;
            }
            VectorSchemaRoot src = pending.set(next++, null);
            try {
                VectorSchemaRoot dst = getVectorSchemaRoot();
                List<FieldVector> from = src.getFieldVectors();
                List<FieldVector> to = dst.getFieldVectors();
                for (int i = 0; i < from.size(); i++) {
                    from.get(i).makeTransferPair(to.get(i)).transfer();
                }
                dst.setRowCount(src.getRowCount());
                return true;
            } finally {
                src.close();
            }
        }

        @Override
        public long bytesRead() {
            return 0;
        }

        @Override
        protected void closeReadSource() {
            List<VectorSchemaRoot> rest = new ArrayList<>();
            for (int i = next; i < pending.size(); i++) {
                if (pending.get(i) != null) {
                    rest.add(pending.get(i));
                    pending.set(i, null);
                }
            }
            try {
                AutoCloseables.close(rest);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        protected Schema readSchema() {
            return schema;
        }
    }
}
