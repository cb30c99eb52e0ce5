package dev.millpond.convert;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The result of converting one poll batch.
 *
 * @param root   the rows, or {@code null} when nothing parsed ({@code rows == 0}). Owned by the caller, who
 *               must close it (directly, through {@link #close()}, or by handing it to {@link BatchUnifier}).
 * @param rows   rows in {@code root}
 * @param failed values that were skipped as unparseable; always {@code values.size() - rows} (a batch made only
 *               of {@code {}} has no columns, so all of its values count here)
 * @param nbytes {@link ArrowSizes#nbytes(VectorSchemaRoot)} of {@code root}, 0 without a root
 */
public record ConvertedBatch(VectorSchemaRoot root, int rows, int failed, long nbytes) implements AutoCloseable {

    /** Closes {@link #root()} if there is one. */
    @Override
    public void close() {
        if (root != null) {
            root.close();
        }
    }
}
