package dev.millpond.pump;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import dev.millpond.stages.RowSelection;
import dev.millpond.vocabulary.ColumnNames;

/**
 * Bounds the table's width before a poll batch is buffered: a batch may bring new columns only while the table stays
 * within {@code maxTableColumns} and the flush within {@code maxNewColumnsPerFlush}. A record holding a value in a
 * column that did not fit is taken out of the batch (the caller keeps it as a reject), and the columns that did not
 * fit leave the batch, so they never cost memory in the buffer, in the flush's unification or in the catalog.
 *
 * <p>Applied right after conversion, before the buffer: every later step's cost grows with columns × rows of the
 * flush, so the bound has to hold before a wide record's columns are multiplied across the flush's other rows.
 * Names are compared ignoring case ({@link ColumnNames}, the rule both sinks apply). The known set is the live
 * table (refreshed after each flush) plus what this process admitted since; pods racing to the bound are caught by
 * the sink, which never adds past it.
 *
 * <p>A spelling of a known column that neither the table nor the flush has had yet ({@code Foo} beside {@code foo})
 * widens no table, but it is a column of its own in the buffer and the flush's unification until the sink merges or
 * drops it, so it counts against the per-flush bound like a new column: keys arriving in ever new casings cannot
 * multiply the flush's columns without limit.
 */
public final class ColumnBudget {

    /** The column every table has beside the payload's. */
    private static final String INSERTED_AT = "_inserted_at";

    private final int maxTableColumns;
    private final int maxNewColumnsPerFlush;
    private final BufferAllocator allocator;
    private final Predicate<String> becomesColumn;
    private final Set<String> known = new HashSet<>();
    /** Admitted since the last {@link #handedOff()}: the flush still being filled brings these. */
    private final Set<String> addedSinceHandOff = new HashSet<>();
    /** Exact spellings known, as {@link #known} holds folded names: any other spelling is a column of its own. */
    private final Set<String> spellings = new HashSet<>();
    /** The spellings admitted since the last {@link #handedOff()}, as {@link #addedSinceHandOff}. */
    private final Set<String> spellingsSinceHandOff = new HashSet<>();
    private int addedThisFlush;

    /**
     * @param becomesColumn whether the sink would ever make a payload key a column; keys it drops by name (unsafe or
     *                      reserved) neither count against the bound nor set a record aside
     */
    public ColumnBudget(int maxTableColumns, int maxNewColumnsPerFlush, BufferAllocator allocator,
                        Predicate<String> becomesColumn) {
        this.becomesColumn = becomesColumn;
        this.maxTableColumns = maxTableColumns;
        this.maxNewColumnsPerFlush = maxNewColumnsPerFlush;
        this.allocator = allocator;
        flushed(List.of());
    }

    /** After a flush (and at startup): the table now has {@code liveColumns}; the next flush may add afresh. */
    public void flushed(Collection<String> liveColumns) {
        handedOff();
        landed(liveColumns);
    }

    /**
     * A flush left the buffer for the sink: the next one may add afresh. What it admitted stays known, since its
     * write may still be running while the next flush fills.
     */
    public void handedOff() {
        addedSinceHandOff.clear();
        addedThisFlush = 0;
        spellingsSinceHandOff.clear();
    }

    /**
     * The flush handed off last has landed and the table now has {@code liveColumns}; the columns admitted for the
     * flush being filled since stay known (and keep counting against its bound).
     */
    public void landed(Collection<String> liveColumns) {
        known.clear();
        known.add(INSERTED_AT);
        spellings.clear();
        for (String c : liveColumns) {
            known.add(fold(c));
            spellings.add(c);
        }
        known.addAll(addedSinceHandOff);
        spellings.addAll(spellingsSinceHandOff);
    }

    /**
     * The batch without the columns that do not fit and without the rows that hold a value in one of them.
     *
     * @param root owned by the callee: returned as is when everything fits, else closed and replaced
     */
    public Admitted admit(VectorSchemaRoot root) {
        List<Field> fields = root.getSchema().getFields();
        int rows = root.getRowCount();
        List<Integer> candidates = new ArrayList<>();
        for (int c = 0; c < fields.size(); c++) {
            String name = fields.get(c).getName();
            if ((!known.contains(fold(name)) || !spellings.contains(name)) && becomesColumn.test(name)) {
                candidates.add(c);
            }
        }
        // When not every new column fits, the ones most records of the batch need go first: a burst of one-off keys
        // must not take the places of a key that many records share. Ties keep first-appearance order.
        candidates.sort(Comparator.comparingInt((Integer c) -> root.getVector(c).getNullCount()));
        List<Integer> added = new ArrayList<>();
        Set<Integer> widening = new HashSet<>();
        List<Integer> overflow = new ArrayList<>();
        for (int c : candidates) {
            String spelling = fields.get(c).getName();
            String name = fold(spelling);
            if (known.contains(name)) {
                // Another spelling of a known column: no wider table, but a column of its own until the sink.
                if (spellings.contains(spelling)) {
                    continue;
                }
                if (addedThisFlush < maxNewColumnsPerFlush) {
                    spellings.add(spelling);
                    spellingsSinceHandOff.add(spelling);
                    addedThisFlush++;
                    added.add(c);
                } else {
                    overflow.add(c);
                }
            } else if (known.size() < maxTableColumns && addedThisFlush < maxNewColumnsPerFlush) {
                known.add(name);
                addedSinceHandOff.add(name);
                spellings.add(spelling);
                spellingsSinceHandOff.add(spelling);
                addedThisFlush++;
                added.add(c);
                widening.add(c);
            } else {
                overflow.add(c);
            }
        }
        if (overflow.isEmpty()) {
            return new Admitted(root, new int[0], null);
        }
        boolean[] rejected = new boolean[rows];
        String firstOverflowing = null;
        for (int c : overflow) {
            FieldVector v = root.getVector(c);
            if (v.getNullCount() == rows) {
                continue;
            }
            for (int r = 0; r < rows; r++) {
                if (!v.isNull(r)) {
                    rejected[r] = true;
                    firstOverflowing = firstOverflowing == null ? v.getName() : firstOverflowing;
                }
            }
        }
        int[] keptRows = new int[rows];
        int kept = 0;
        List<Integer> rejectedRows = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            if (rejected[r]) {
                rejectedRows.add(r);
            } else {
                keptRows[kept++] = r;
            }
        }
        Set<Integer> dropped = new HashSet<>(overflow);
        for (int c : added) {
            // A column only the set-aside rows had must not widen the table for nothing: give its place back.
            if (!hasValueIn(root.getVector(c), keptRows, kept)) {
                String spelling = fields.get(c).getName();
                if (widening.contains(c)) {
                    known.remove(fold(spelling));
                    addedSinceHandOff.remove(fold(spelling));
                }
                spellings.remove(spelling);
                spellingsSinceHandOff.remove(spelling);
                addedThisFlush--;
                dropped.add(c);
            }
        }
        int[] rejectedArray = rejectedRows.stream().mapToInt(Integer::intValue).toArray();
        List<FieldVector> keptColumns = new ArrayList<>();
        for (int c = 0; c < fields.size(); c++) {
            if (!dropped.contains(c)) {
                keptColumns.add(root.getVector(c));
            }
        }
        try {
            if (kept == 0 || keptColumns.isEmpty()) {
                return new Admitted(null, rejectedArray, firstOverflowing);
            }
            VectorSchemaRoot projection = new VectorSchemaRoot(keptColumns);
            projection.setRowCount(rows);
            return new Admitted(RowSelection.select(projection, keptRows, kept, allocator), rejectedArray,
                    firstOverflowing);
        } finally {
            root.close();
        }
    }

    private static boolean hasValueIn(FieldVector v, int[] rows, int count) {
        if (v.getNullCount() == v.getValueCount()) {
            return false;
        }
        for (int k = 0; k < count; k++) {
            if (!v.isNull(rows[k])) {
                return true;
            }
        }
        return false;
    }

    private static String fold(String name) {
        return ColumnNames.fold(name);
    }

    /**
     * @param root          the rows that fit, or null when none is left
     * @param rejectedRows  rows of the input batch set aside, ascending
     * @param firstColumn   a column that did not fit (for the warning), null when no row was set aside
     */
    public record Admitted(VectorSchemaRoot root, int[] rejectedRows, String firstColumn) {
    }
}
