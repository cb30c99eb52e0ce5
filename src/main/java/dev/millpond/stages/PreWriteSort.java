package dev.millpond.stages;

import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.SortSkipReason;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * MILLPOND_SORT_BY: sorts a flush's rows ascending by the keys in tuple order, stable (equal keys keep consume
 * order), nulls last, right before the write. A missing key or an unsortable key type skips the sort — the rows
 * are still written, unsorted — with {@code sort_skipped_total{reason}} += the flush's records and one warning per
 * distinct pattern. Peak memory is about twice the flush while the sorted copy is built.
 */
final class PreWriteSort {
    private static final System.Logger LOG = System.getLogger(PreWriteSort.class.getName());

    private final List<String> keys;
    private final MillpondMetrics metrics;
    private final BufferAllocator allocator;
    private final OnceWarnings warnings = new OnceWarnings(LOG);

    PreWriteSort(List<String> keys, MillpondMetrics metrics, BufferAllocator allocator) {
        this.keys = List.copyOf(keys);
        this.metrics = metrics;
        this.allocator = allocator;
    }

    boolean isNoop() {
        return keys.isEmpty();
    }

    /**
     * The batches (one shared schema) concatenated and sorted into one new root owned by the caller, or empty
     * when the sort is disabled or skipped — then the caller writes its batches as they are. The batches stay
     * owned by the caller either way.
     */
    Optional<VectorSchemaRoot> sort(List<VectorSchemaRoot> batches) {
        if (keys.isEmpty() || batches.isEmpty()) {
            return Optional.empty();
        }
        int rows = 0;
        for (VectorSchemaRoot b : batches) {
            rows = Math.addExact(rows, b.getRowCount());
        }
        Schema schema = batches.get(0).getSchema();
        List<String> missing = keys.stream().filter(k -> schema.getFields().stream()
                .noneMatch(f -> f.getName().equals(k))).toList();
        if (!missing.isEmpty()) {
            metrics.sortSkipped(SortSkipReason.FIELD_MISSING, rows);
            warnings.warn("missing\u0000" + missing, () -> "MILLPOND_SORT_BY: field(s) " + missing
                    + " missing from the flush; writing it unsorted");
            return Optional.empty();
        }
        List<String> unsortable = keys.stream()
                .filter(k -> !SortKey.isSortable(batches.get(0).getVector(k))).toList();
        if (!unsortable.isEmpty()) {
            metrics.sortSkipped(SortSkipReason.UNSORTABLE_TYPE, rows);
            warnings.warn("unsortable\u0000" + keys, () -> "MILLPOND_SORT_BY: field(s) " + unsortable
                    + " have a type that cannot be sorted (" + schema + "); writing the flush unsorted");
            return Optional.empty();
        }
        return Optional.of(sorted(batches, rows));
    }

    private VectorSchemaRoot sorted(List<VectorSchemaRoot> batches, int rows) {
        SortKey[] sortKeys = new SortKey[keys.size()];
        for (int k = 0; k < sortKeys.length; k++) {
            List<FieldVector> column = new ArrayList<>(batches.size());
            for (VectorSchemaRoot b : batches) {
                column.add(b.getVector(keys.get(k)));
            }
            sortKeys[k] = SortKey.of(column, rows);
        }
        Integer[] order = new Integer[rows];
        for (int r = 0; r < rows; r++) {
            order[r] = r;
        }
        // Arrays.sort on objects is a stable merge sort (TimSort): equal keys keep their consume order.
        Arrays.sort(order, (a, b) -> {
            for (SortKey key : sortKeys) {
                int c = key.compare(a, b);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
        int[] batchStart = new int[batches.size()];
        for (int b = 1; b < batches.size(); b++) {
            batchStart[b] = batchStart[b - 1] + batches.get(b - 1).getRowCount();
        }
        int[] batchOf = new int[rows];
        int[] rowOf = new int[rows];
        for (int k = 0; k < rows; k++) {
            int global = order[k];
            int b = Arrays.binarySearch(batchStart, global);
            if (b < 0) {
                b = -b - 2;
            } else {
                // Skip empty batches that start at the same offset.
                while (b + 1 < batchStart.length && batchStart[b + 1] == global) {
                    b++;
                }
            }
            batchOf[k] = b;
            rowOf[k] = global - batchStart[b];
        }
        return RowSelection.gather(batches, batchOf, rowOf, rows, allocator);
    }
}
