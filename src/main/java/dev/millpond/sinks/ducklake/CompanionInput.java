package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.sinks.FlushBatch;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What one flush's VARIANT companions are cast from, and in which INSERTs. Every source value is read once
 * ({@link CompanionScan}): its key paths, whether it holds an integer of the uint64 window, whether DuckDB can write it
 * faithfully. Hidden columns carry what the companions need beside the batch's own vectors, which are shared, never
 * copied:
 * <ul>
 *   <li>per text source with anything to say, {@code __millpond_variant_src_<source>}: NULL on most rows, the
 *       rewritten text where the source has window integers ({@link Uint64WindowRewrite}), or {@code null} (a NULL
 *       companion) where the value cannot be written as it is;</li>
 *   <li>{@link #SLOT_COLUMN}, only when the shredding budget splits the flush ({@link ShredPlan}): the slot each row
 *       is streamed in.</li>
 * </ul>
 * Closing releases the hidden vectors; the batch's own vectors stay with their owner.
 */
final class CompanionInput implements AutoCloseable {

    static final String HIDDEN_PREFIX = "__millpond_variant_src_";
    static final String SLOT_COLUMN = "__millpond_shred_slot";
    /** The companion {@code shred_width} reason: a row no INSERT could analyse within the shredding budget. */
    static final String SHRED_WIDTH = "shred_width";

    /**
     * The shredding budget of one write attempt.
     *
     * @param rowGroupRows the table's parquet row group rows: what DuckDB analyses of a file
     * @param leafBudget   the most parquet columns the companions of one INSERT may shred into
     * @param maxSlices    the most INSERTs one group of rows may take
     */
    record Shredding(long rowGroupRows, long leafBudget, int maxSlices) {
    }

    /**
     * One INSERT: {@code rows} (a group of the flush's batches, hidden columns included) and, when {@code filtered},
     * only the rows of {@code slice}'s slots, its prefix streamed before its rest.
     */
    record Insert(FlushBatch rows, ShredPlan.Slice slice, boolean filtered) {
    }

    private final Map<String, String> hidden;
    private final List<Insert> inserts;
    private final long rowsRewritten;
    private final Map<String, Map<String, Long>> nulled;
    private final List<FieldVector> owned;
    private final String slotColumn;

    private CompanionInput(Map<String, String> hidden, String slotColumn, List<Insert> inserts, long rowsRewritten,
                           Map<String, Map<String, Long>> nulled, List<FieldVector> owned) {
        this.hidden = hidden;
        this.slotColumn = slotColumn;
        this.inserts = inserts;
        this.rowsRewritten = rowsRewritten;
        this.nulled = nulled;
        this.owned = owned;
    }

    /**
     * @param groups    the flush's batches in the groups that go to DuckDB apart ({@link InsertSlices}), in order
     * @param sources   the configured sources the flush carries, in the batch's spelling
     * @param shredding the budget, or empty when DuckDB's memory is not bounded (then each group is one INSERT)
     */
    static CompanionInput of(FlushBatch flush, List<FlushBatch> groups, List<String> sources,
                             Optional<Shredding> shredding, BufferAllocator allocator) {
        List<FieldVector> owned = new ArrayList<>();
        try {
            return build(flush, groups, sources, shredding, allocator, owned);
        } catch (RuntimeException e) {
            owned.forEach(FieldVector::close);
            throw e;
        }
    }

    private static CompanionInput build(FlushBatch flush, List<FlushBatch> groups, List<String> sources,
                                        Optional<Shredding> shredding, BufferAllocator allocator,
                                        List<FieldVector> owned) {
        ShredPaths paths = new ShredPaths();
        CompanionScan scan = new CompanionScan(paths);
        int[] roots = new int[sources.size()];
        for (int s = 0; s < roots.length; s++) {
            roots[s] = paths.root();
        }
        // Per source: flush row -> the text its companion is cast from instead of the source (sparse).
        List<Map<Integer, byte[]>> replaced = new ArrayList<>();
        List<BitSet> shreddable = new ArrayList<>();
        Map<String, Map<String, Long>> nulled = new LinkedHashMap<>();
        for (int s = 0; s < sources.size(); s++) {
            replaced.add(new HashMap<>());
            shreddable.add(new BitSet());
        }
        Map<VectorSchemaRoot, Integer> firstRow = new IdentityHashMap<>();
        int row = 0;
        for (VectorSchemaRoot root : flush.batches()) {
            firstRow.put(root, row);
            row += root.getRowCount();
        }
        int[] slots = new int[row];
        List<ShredPlan> plans = new ArrayList<>();
        boolean sliced = false;
        byte[] scratch = new byte[1024];
        for (FlushBatch group : groups) {
            RowPaths rowPaths = new RowPaths();
            // In a group smaller than a row group DuckDB analyses every row, so a value wider than the whole budget
            // can never be written with its companion; in a larger one it can, behind the rows DuckDB analyses.
            long aloneLimit = shredding.filter(b -> group.rows() < b.rowGroupRows())
                    .map(Shredding::leafBudget).orElse(Long.MAX_VALUE);
            int groupStart = group.batches().isEmpty() ? 0 : firstRow.get(group.batches().get(0));
            int g = groupStart;
            for (VectorSchemaRoot root : group.batches()) {
                for (int r = 0; r < root.getRowCount(); r++, g++) {
                    for (int s = 0; s < sources.size(); s++) {
                        FieldVector vector = root.getVector(sources.get(s));
                        if (vector == null || vector.isNull(r)) {
                            continue;
                        }
                        if (!(vector instanceof VarCharVector text)) {
                            // A typed source (the converter makes no UBIGINT) is one scalar.
                            rowPaths.add(roots[s]);
                            paths.markScalar(roots[s]);
                            shreddable.get(s).set(g);
                            continue;
                        }
                        long from = text.getStartOffset(r);
                        int length = (int) (text.getEndOffset(r) - from);
                        if (scratch.length < length) {
                            scratch = new byte[Math.max(length, scratch.length * 2)];
                        }
                        ArrowBuf data = text.getDataBuffer();
                        data.getBytes(from, scratch, 0, length);
                        int mark = rowPaths.size();
                        CompanionScan.Outcome outcome = scan.scan(scratch, 0, length, roots[s], rowPaths);
                        if (outcome == CompanionScan.Outcome.SHREDDABLE && leaves(rowPaths, mark, paths) > aloneLimit) {
                            rowPaths.truncate(mark);
                            replaced.get(s).put(g, Uint64WindowRewrite.NULL_COMPANION);
                            count(nulled, sources.get(s), SHRED_WIDTH, 1);
                            continue;
                        }
                        if (outcome == CompanionScan.Outcome.SHREDDABLE) {
                            shreddable.get(s).set(g);
                            if (scan.windowInteger()) {
                                byte[] quoted = Uint64WindowRewrite.rewrite(scratch, 0, length);
                                if (quoted != null) {
                                    replaced.get(s).put(g, quoted);
                                }
                            }
                            continue;
                        }
                        rowPaths.truncate(mark);
                        replaced.get(s).put(g, Uint64WindowRewrite.NULL_COMPANION);
                        if (outcome.reason != null) {
                            count(nulled, sources.get(s), outcome.reason, 1);
                        }
                    }
                    rowPaths.endRow();
                }
            }
            ShredPlan plan = shredding.map(b -> ShredPlan.of(rowPaths, paths::leaves, b.rowGroupRows(),
                    b.leafBudget(), b.maxSlices())).orElseGet(() -> ShredPlan.whole(rowPaths.rows()));
            for (int r = plan.tooWide().nextSetBit(0); r >= 0; r = plan.tooWide().nextSetBit(r + 1)) {
                int flushRow = groupStart + r;
                for (int s = 0; s < sources.size(); s++) {
                    if (shreddable.get(s).get(flushRow)) {
                        replaced.get(s).put(flushRow, Uint64WindowRewrite.NULL_COMPANION);
                        count(nulled, sources.get(s), SHRED_WIDTH, 1);
                    }
                }
            }
            System.arraycopy(plan.slot(), 0, slots, groupStart, plan.slot().length);
            plans.add(plan);
            sliced |= !plan.trivial();
        }

        Set<String> taken = new HashSet<>();
        flush.schema().getFields().forEach(f -> taken.add(f.getName().toLowerCase(Locale.ROOT)));
        Map<String, String> hidden = new LinkedHashMap<>();
        Map<String, List<FieldVector>> extra = new LinkedHashMap<>();
        long rewritten = 0;
        for (int s = 0; s < sources.size(); s++) {
            Map<Integer, byte[]> texts = replaced.get(s);
            if (texts.isEmpty()) {
                continue;
            }
            for (byte[] t : texts.values()) {
                rewritten += t == Uint64WindowRewrite.NULL_COMPANION ? 0 : 1;
            }
            String name = unique(HIDDEN_PREFIX + sources.get(s).toLowerCase(Locale.ROOT), taken);
            hidden.put(sources.get(s), name);
            extra.put(name, textColumns(flush, firstRow, new TreeMap<>(texts), allocator, owned));
        }
        String slotName = null;
        if (sliced) {
            slotName = unique(SLOT_COLUMN, taken);
            extra.put(slotName, slotColumns(flush, firstRow, slots, allocator, owned));
        }
        List<Insert> inserts = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            FlushBatch group = extra.isEmpty() ? groups.get(i) : extended(groups.get(i), flush, extra, slotName);
            for (ShredPlan.Slice slice : plans.get(i).slices()) {
                inserts.add(new Insert(group, slice, sliced));
            }
        }
        return new CompanionInput(Map.copyOf(hidden), slotName, List.copyOf(inserts), rewritten, nulled, owned);
    }

    /** The leaves of the nodes the scan added after {@code mark}: what the value alone would shred into. */
    private static long leaves(RowPaths rows, int mark, ShredPaths paths) {
        long sum = 0;
        for (int i = mark; i < rows.size(); i++) {
            sum += paths.leaves(rows.node(i));
            if (sum < 0) {
                return Long.MAX_VALUE;
            }
        }
        return sum;
    }

    private static void count(Map<String, Map<String, Long>> nulled, String source, String reason, long rows) {
        nulled.computeIfAbsent(source, k -> new TreeMap<>()).merge(reason, rows, Long::sum);
    }

    private static String unique(String name, Set<String> taken) {
        while (!taken.add(name.toLowerCase(Locale.ROOT))) {
            name = name + "_";
        }
        return name;
    }

    /** One text vector per batch: NULL except the rows of {@code texts} (flush row -> text). */
    private static List<FieldVector> textColumns(FlushBatch flush, Map<VectorSchemaRoot, Integer> firstRow,
                                                 TreeMap<Integer, byte[]> texts, BufferAllocator allocator,
                                                 List<FieldVector> owned) {
        List<FieldVector> columns = new ArrayList<>();
        for (VectorSchemaRoot root : flush.batches()) {
            int first = firstRow.get(root);
            VarCharVector v = new VarCharVector("hidden", allocator);
            owned.add(v);
            v.allocateNew(root.getRowCount());
            for (Map.Entry<Integer, byte[]> e : texts.subMap(first, first + root.getRowCount()).entrySet()) {
                v.setSafe(e.getKey() - first, e.getValue());
            }
            v.setValueCount(root.getRowCount());
            columns.add(v);
        }
        return columns;
    }

    private static List<FieldVector> slotColumns(FlushBatch flush, Map<VectorSchemaRoot, Integer> firstRow,
                                                 int[] slots, BufferAllocator allocator, List<FieldVector> owned) {
        List<FieldVector> columns = new ArrayList<>();
        for (VectorSchemaRoot root : flush.batches()) {
            int first = firstRow.get(root);
            IntVector v = new IntVector("slot", allocator);
            owned.add(v);
            v.allocateNew(root.getRowCount());
            for (int r = 0; r < root.getRowCount(); r++) {
                v.set(r, slots[first + r]);
            }
            v.setValueCount(root.getRowCount());
            columns.add(v);
        }
        return columns;
    }

    /** The group's batches with the hidden columns appended, sharing every original vector. */
    private static FlushBatch extended(FlushBatch group, FlushBatch flush, Map<String, List<FieldVector>> extra,
                                       String slotName) {
        List<Field> fields = new ArrayList<>(group.schema().getFields());
        for (String name : extra.keySet()) {
            fields.add(Field.nullable(name, name.equals(slotName) ? new ArrowType.Int(32, true) : new ArrowType.Utf8()));
        }
        Schema schema = new Schema(fields);
        List<VectorSchemaRoot> roots = new ArrayList<>();
        for (VectorSchemaRoot root : group.batches()) {
            int b = flush.batches().indexOf(root);
            List<FieldVector> vectors = new ArrayList<>(root.getFieldVectors());
            for (List<FieldVector> columns : extra.values()) {
                vectors.add(columns.get(b));
            }
            roots.add(new VectorSchemaRoot(fields, vectors, root.getRowCount()));
        }
        return group.withBatches(schema, roots);
    }

    List<Insert> inserts() {
        return inserts;
    }

    long rowsRewritten() {
        return rowsRewritten;
    }

    /** Per source, per reason: rows whose companion is NULL though their source is JSON (docs/variant.md). */
    Map<String, Map<String, Long>> nulled() {
        return nulled;
    }

    /** The slot column's name in {@link Insert#rows()}; null when no insert is filtered. */
    String slotColumn() {
        return slotColumn;
    }

    /**
     * The companion of {@code source} (batch spelling): the documented {@code try_cast(try_cast(col AS JSON) AS VARIANT)},
     * where col is the hidden text on the rows that have one. Text DuckDB rejects as JSON keeps a NULL companion
     * even when its rewrite would parse.
     */
    String projection(String source) {
        String src = DuckLakeSql.ident(source);
        String h = hidden.get(source);
        String text = h == null ? src : "CASE WHEN " + DuckLakeSql.ident(h) + " IS NULL THEN " + src
                + " WHEN try_cast(" + src + " AS JSON) IS NOT NULL THEN " + DuckLakeSql.ident(h) + " END";
        return "try_cast(try_cast(" + text + " AS JSON) AS VARIANT)";
    }

    @Override
    public void close() {
        owned.forEach(FieldVector::close);
    }
}
