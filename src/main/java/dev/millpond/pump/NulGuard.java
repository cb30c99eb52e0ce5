package dev.millpond.pump;

import dev.millpond.stages.RowSelection;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Takes out of a poll batch the rows whose text, in a column where the sink cannot store the character U+0000, holds
 * one (DuckLake: a column the table is partitioned by, whose values the catalog keeps as SQL text); the caller keeps
 * those records as rejects, whole. Applied right after conversion, where a row still maps to its Kafka record.
 */
final class NulGuard {

    private final Set<String> columns;

    /** @param columns the sink's column names (any case) whose text must not hold U+0000; empty: a no-op */
    NulGuard(Set<String> columns) {
        this.columns = columns.stream().map(c -> c.toLowerCase(Locale.ROOT))
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /**
     * @param root owned by the callee: returned as is when no row holds a NUL where it may not, else closed and
     *             replaced by the other rows (null when none is left)
     */
    Guarded admit(VectorSchemaRoot root) {
        if (columns.isEmpty()) {
            return new Guarded(root, new int[0], null);
        }
        int rows = root.getRowCount();
        boolean[] refused = new boolean[rows];
        String first = null;
        for (FieldVector v : root.getFieldVectors()) {
            if (v instanceof VarCharVector text && columns.contains(v.getName().toLowerCase(Locale.ROOT))) {
                for (int r = 0; r < rows; r++) {
                    if (!refused[r] && !text.isNull(r) && holdsNul(text, r)) {
                        refused[r] = true;
                        first = first == null ? v.getName() : first;
                    }
                }
            }
        }
        if (first == null) {
            return new Guarded(root, new int[0], null);
        }
        int[] kept = new int[rows];
        int keptCount = 0;
        List<Integer> out = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            if (refused[r]) {
                out.add(r);
            } else {
                kept[keptCount++] = r;
            }
        }
        int[] refusedRows = out.stream().mapToInt(Integer::intValue).toArray();
        try {
            return new Guarded(keptCount == 0 ? null : RowSelection.select(root, kept, keptCount,
                    root.getVector(0).getAllocator()), refusedRows, first);
        } finally {
            root.close();
        }
    }

    private static boolean holdsNul(VarCharVector v, int row) {
        ArrowBuf offsets = v.getOffsetBuffer();
        long start = offsets.getInt((long) row * VarCharVector.OFFSET_WIDTH);
        long end = offsets.getInt((long) (row + 1) * VarCharVector.OFFSET_WIDTH);
        ArrowBuf data = v.getDataBuffer();
        for (long i = start; i < end; i++) {
            if (data.getByte(i) == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param root         the other rows, or null when none is left
     * @param refusedRows  rows of the input batch taken out, ascending
     * @param firstColumn  a column that held a NUL (for the reject's reason), null when no row was taken out
     */
    record Guarded(VectorSchemaRoot root, int[] refusedRows, String firstColumn) {

        /** Per row of {@link #root}, the value it came from, given that per row of the input batch. */
        int[] rowsOf(int[] valueOfInputRow) {
            int[] out = new int[valueOfInputRow.length - refusedRows.length];
            int next = 0;
            int k = 0;
            for (int r = 0; r < valueOfInputRow.length; r++) {
                if (next < refusedRows.length && refusedRows[next] == r) {
                    next++;
                } else {
                    out[k++] = valueOfInputRow[r];
                }
            }
            return out;
        }
    }
}
