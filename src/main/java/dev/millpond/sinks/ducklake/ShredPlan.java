package dev.millpond.sinks.ducklake;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntToLongFunction;

/**
 * How one INSERT's rows go to DuckDB so that shredding their VARIANT companions fits DuckDB's memory.
 *
 * <p>DuckDB 1.5.5's parquet writer decides a file's shredded columns from the rows of its <em>first row group</em>
 * alone, then holds every one of those columns for each row group it writes; rows after the first row group whose
 * keys are not among them go whole into the companion's {@code value} column at no extra cost (docs/variant.md). So
 * what must be bounded is the paths of the rows DuckDB analyses, not the rows. A slice is one INSERT (one parquet
 * file) of rows in two parts, streamed in this order: its <em>prefix</em>, the rows DuckDB analyses, whose paths fit
 * the budget, and its <em>rest</em>, the rows after them. A rest is only allowed behind a prefix of at least a row
 * group of rows, so the first row group never reaches into it.
 *
 * <p>The planner spends the budget on the paths most rows share: it takes paths by how many rows have them while their
 * leaves fit, and the rows whose paths are all among them form the prefix. Where that leaves fewer rows than a row
 * group, the slice is analysed whole and other rows join it as long as the union of their paths still fits; the rows
 * left over make further slices. Rows that no slice can take (a row wider than the budget by itself in a flush too
 * small to put it behind a prefix, or rows left when {@code maxSlices} is spent) get a NULL companion, and the caller
 * counts them.
 *
 * @param slot    per row, the slot it is streamed in: a slice's prefix is slot {@code 2k}, its rest {@code 2k + 1}
 * @param slices  the INSERTs, in order
 * @param tooWide rows whose companions must be NULL: no slice could analyse them within the budget
 */
record ShredPlan(int[] slot, List<Slice> slices, BitSet tooWide) {

    /** One INSERT: the prefix slot and, when {@code restSlot >= 0}, the rest slot after it. */
    record Slice(int prefixSlot, int restSlot) {
        boolean hasRest() {
            return restSlot >= 0;
        }
    }

    /** All rows in one INSERT, as without a budget. */
    static ShredPlan whole(int rows) {
        return new ShredPlan(new int[rows], List.of(new Slice(0, -1)), new BitSet());
    }

    /** Whether the rows go to DuckDB as they are, in one INSERT with nothing nulled. */
    boolean trivial() {
        return slices.size() == 1 && !slices.get(0).hasRest() && tooWide.isEmpty();
    }

    /**
     * @param rows          each row's path nodes
     * @param leaves        the parquet columns a node costs
     * @param rowGroupRows  the rows of the table's parquet row group: the rows DuckDB analyses in a file
     * @param leafBudget    the most columns DuckDB may shred in one INSERT
     * @param maxSlices     the most INSERTs the rows may take
     */
    static ShredPlan of(RowPaths rows, IntToLongFunction leaves, long rowGroupRows, long leafBudget, int maxSlices) {
        int n = rows.rows();
        int nodes = rows.maxNode() + 1;
        int[] slot = new int[n];
        List<Slice> slices = new ArrayList<>();
        BitSet tooWide = new BitSet();
        int[] remaining = new int[n];
        for (int r = 0; r < n; r++) {
            remaining[r] = r;
        }
        int left = n;
        int[] freq = new int[nodes];
        boolean[] chosen = new boolean[nodes];
        while (left > 0 && slices.size() < maxSlices) {
            int s = 2 * slices.size();
            Arrays.fill(freq, 0);
            long total = 0;
            for (int k = 0; k < left; k++) {
                int r = remaining[k];
                for (int i = rows.from(r); i < rows.to(r); i++) {
                    if (freq[rows.node(i)]++ == 0) {
                        total = saturatedAdd(total, leaves.applyAsLong(rows.node(i)));
                    }
                }
            }
            if (total <= leafBudget) {
                assign(slot, remaining, left, s);
                slices.add(new Slice(s, -1));
                left = 0;
                break;
            }
            chooseByFrequency(freq, leaves, leafBudget, chosen);
            int[] covered = new int[left];
            int[] uncovered = new int[left];
            int c = 0;
            int u = 0;
            for (int k = 0; k < left; k++) {
                int r = remaining[k];
                if (allChosen(rows, r, chosen)) {
                    covered[c++] = r;
                } else {
                    uncovered[u++] = r;
                }
            }
            // The rows made only of the cheapest paths, then the others by what they add while the union fits.
            boolean[] inGroup = new boolean[nodes];
            long groupLeaves = 0;
            for (int k = 0; k < c; k++) {
                groupLeaves = mark(rows, covered[k], inGroup, leaves, groupLeaves);
            }
            long[] byExtra = new long[u];
            for (int k = 0; k < u; k++) {
                byExtra[k] = (Math.min(extra(rows, uncovered[k], inGroup, leaves), Integer.MAX_VALUE) << 32)
                        | uncovered[k];
            }
            Arrays.sort(byExtra);
            int[] group = Arrays.copyOf(covered, left);
            int g = c;
            int[] rest = new int[u];
            int restCount = 0;
            for (long packed : byExtra) {
                int r = (int) packed;
                long extra = extra(rows, r, inGroup, leaves);
                if (saturatedAdd(groupLeaves, extra) <= leafBudget) {
                    groupLeaves = mark(rows, r, inGroup, leaves, groupLeaves);
                    group[g++] = r;
                } else {
                    rest[restCount++] = r;
                }
            }
            if (g == 0) {
                break; // every row left is wider than the budget by itself
            }
            Arrays.sort(group, 0, g);
            assign(slot, group, g, s);
            if (g >= rowGroupRows && restCount > 0) {
                // A full row group of them: DuckDB analyses no further, so every other row follows in the same file.
                Arrays.sort(rest, 0, restCount);
                assign(slot, rest, restCount, s + 1);
                slices.add(new Slice(s, s + 1));
                left = 0;
                break;
            }
            // Too few to fill a row group: this slice is analysed whole, and the rows left make the next ones.
            slices.add(new Slice(s, -1));
            Arrays.sort(rest, 0, restCount);
            remaining = rest;
            left = restCount;
        }
        if (left > 0) {
            // Their companions are NULL, so they add no path to whatever part of a file they are in.
            if (slices.isEmpty()) {
                slices.add(new Slice(0, -1));
            }
            for (int k = 0; k < left; k++) {
                tooWide.set(remaining[k]);
                slot[remaining[k]] = slices.get(0).prefixSlot();
            }
        }
        return new ShredPlan(slot, List.copyOf(slices), tooWide);
    }

    /** Marks the nodes taken, most frequent first, while their leaves fit the budget. */
    private static void chooseByFrequency(int[] freq, IntToLongFunction leaves, long budget, boolean[] chosen) {
        int present = 0;
        for (int f : freq) {
            present += f > 0 ? 1 : 0;
        }
        long[] byFrequency = new long[present];
        int k = 0;
        for (int node = 0; node < freq.length; node++) {
            if (freq[node] > 0) {
                byFrequency[k++] = ((long) (Integer.MAX_VALUE - freq[node]) << 32) | node;
            }
        }
        Arrays.sort(byFrequency);
        Arrays.fill(chosen, false);
        long used = 0;
        for (long packed : byFrequency) {
            int node = (int) packed;
            long cost = leaves.applyAsLong(node);
            if (saturatedAdd(used, cost) <= budget) {
                chosen[node] = true;
                used += cost;
            }
        }
    }

    private static boolean allChosen(RowPaths rows, int r, boolean[] chosen) {
        for (int i = rows.from(r); i < rows.to(r); i++) {
            if (!chosen[rows.node(i)]) {
                return false;
            }
        }
        return true;
    }

    private static long extra(RowPaths rows, int r, boolean[] inGroup, IntToLongFunction leaves) {
        long extra = 0;
        for (int i = rows.from(r); i < rows.to(r); i++) {
            if (!inGroup[rows.node(i)]) {
                extra = saturatedAdd(extra, leaves.applyAsLong(rows.node(i)));
            }
        }
        return extra;
    }

    private static long mark(RowPaths rows, int r, boolean[] inGroup, IntToLongFunction leaves, long sum) {
        for (int i = rows.from(r); i < rows.to(r); i++) {
            int node = rows.node(i);
            if (!inGroup[node]) {
                inGroup[node] = true;
                sum = saturatedAdd(sum, leaves.applyAsLong(node));
            }
        }
        return sum;
    }

    private static void assign(int[] slot, int[] rows, int count, int value) {
        for (int k = 0; k < count; k++) {
            slot[rows[k]] = value;
        }
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
