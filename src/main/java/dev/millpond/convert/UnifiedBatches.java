package dev.millpond.convert;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The batches of one flush, all with the same {@link #schema()}. Owns its roots: {@link #close()} releases them.
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

    /** The batches, still owned by this object (read-only view; empty after {@link #close()}). */
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
}
