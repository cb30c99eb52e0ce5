package dev.millpond.convert;

import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The result of converting one poll batch.
 *
 * @param root     the rows, or {@code null} when nothing parsed ({@code rows == 0}). Owned by the caller, who
 *                 must close it (directly, through {@link #close()}, or by handing it to {@link BatchUnifier}).
 * @param rows     rows in {@code root}
 * @param failed   values that were skipped as unparseable; always {@code values.size() - rows} (a batch made only
 *                 of {@code {}} has no columns, so all of its values count here)
 * @param nbytes   {@link ArrowSizes#nbytes(VectorSchemaRoot)} of {@code root}, 0 without a root
 * @param failures which values were skipped and why, in input order; row {@code r} of {@code root} is the
 *                 {@code r}-th value not listed here. Whenever there is a root, every failed value is listed
 *                 (the pump traces rows back to their Kafka records through it); without a root, the values that
 *                 parsed as objects without keys are not listed
 */
public record ConvertedBatch(VectorSchemaRoot root, int rows, int failed, long nbytes, List<Failure> failures)
        implements AutoCloseable {

    /** A value that could not become a row: its index in the converted list and why. */
    public record Failure(int index, String reason) {
    }

    public ConvertedBatch {
        failures = List.copyOf(failures);
    }

    /** Closes {@link #root()} if there is one. */
    @Override
    public void close() {
        if (root != null) {
            root.close();
        }
    }
}
