package dev.millpond.convert;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Arrow in-memory size as pyarrow's {@code Table.nbytes} reports it (the sum of the buffer ranges the
 * arrays reference), which the flush-size trigger is measured in. Arrow Java's buffer capacities are
 * rounded up and padded, so they are not used.
 *
 * <p>Per column of {@code n} rows: 8·n for int64/double (generally byte-width·n for fixed-width types),
 * ⌈n/8⌉ for bool, 4·(n+1) offsets + the UTF-8 data bytes for strings (8·(n+1) for large strings),
 * plus ⌈n/8⌉ validity bytes only when the column holds at least one null.
 * Example: 1,000 rows of {@code {"a":1,"b":"xyz"}} = 8,000 + 4,004 + 3,000 = 15,004 bytes.
 */
public final class ArrowSizes {
    private ArrowSizes() {}

    /** The pyarrow-compatible {@code nbytes} of every column of {@code root}; 0 for {@code null}. */
    public static long nbytes(VectorSchemaRoot root) {
        if (root == null) {
            return 0;
        }
        long total = 0;
        for (FieldVector v : root.getFieldVectors()) {
            total += nbytes(v);
        }
        return total;
    }

    /** The pyarrow-compatible {@code nbytes} of one vector. */
    public static long nbytes(FieldVector v) {
        int n = v.getValueCount();
        if (v instanceof NullVector) {
            return 0;
        }
        if (v instanceof ExtensionTypeVector<?> ext) {
            return nbytes(ext.getUnderlyingVector());
        }
        long validity = v.getNullCount() > 0 ? bitmapBytes(n) : 0;
        if (v instanceof BitVector) {
            return bitmapBytes(n) + validity;
        }
        if (v instanceof BaseFixedWidthVector fixed) {
            return (long) fixed.getTypeWidth() * n + validity;
        }
        if (v instanceof BaseVariableWidthVector var) {
            long data = n == 0 ? 0 : (long) var.getOffsetBuffer().getInt((long) n * 4) - var.getOffsetBuffer().getInt(0);
            return 4L * (n + 1) + data + validity;
        }
        if (v instanceof BaseLargeVariableWidthVector var) {
            long data = n == 0 ? 0 : var.getOffsetBuffer().getLong((long) n * 8) - var.getOffsetBuffer().getLong(0);
            return 8L * (n + 1) + data + validity;
        }
        // Nested or exotic types never come out of the converter; approximate with Arrow's own figure.
        return v.getBufferSize();
    }

    private static long bitmapBytes(int n) {
        return (n + 7L) / 8;
    }
}
