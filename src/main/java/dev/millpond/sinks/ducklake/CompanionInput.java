package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.FlushBatch;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What one flush's VARIANT companions are cast from. For each text source whose rows hold an integer of the uint64
 * window ({@link Uint64WindowRewrite}) the batch gets a hidden column, NULL except on those rows, where it holds the
 * rewritten text; the companion's projection prefers it. The hidden column is sparse, so a flush without such
 * integers (nearly all of them) costs one byte scan of each source and no memory; the source vectors are shared, never
 * copied. Closing releases the hidden vectors; the batch's own vectors stay with their owner.
 */
final class CompanionInput implements AutoCloseable {

    static final String HIDDEN_PREFIX = "__millpond_variant_src_";

    private final FlushBatch batch;
    /** Source (batch spelling) → its hidden column, only for sources with at least one rewritten row. */
    private final Map<String, String> hidden;
    private final long rowsRewritten;
    private final List<FieldVector> owned;

    private CompanionInput(FlushBatch batch, Map<String, String> hidden, long rowsRewritten, List<FieldVector> owned) {
        this.batch = batch;
        this.hidden = hidden;
        this.rowsRewritten = rowsRewritten;
        this.owned = owned;
    }

    /** {@code sources} in the batch's spelling; non-text sources need nothing (the converter never makes UBIGINT). */
    static CompanionInput of(FlushBatch batch, List<String> sources, BufferAllocator allocator) {
        Map<String, String> hidden = new LinkedHashMap<>();
        List<FieldVector> owned = new ArrayList<>();
        Map<String, List<VarCharVector>> perSource = new LinkedHashMap<>();
        long rewrittenRows = 0;
        byte[] scratch = new byte[1024];
        Set<String> taken = new HashSet<>();
        batch.schema().getFields().forEach(f -> taken.add(f.getName().toLowerCase(Locale.ROOT)));
        try {
            for (String source : sources) {
                List<VarCharVector> columns = null;
                for (int b = 0; b < batch.batches().size(); b++) {
                    if (!(batch.batches().get(b).getVector(source) instanceof VarCharVector text)) {
                        break;
                    }
                    VarCharVector rewritten = null;
                    int rows = text.getValueCount();
                    ArrowBuf data = text.getDataBuffer();
                    for (int r = 0; r < rows; r++) {
                        if (text.isNull(r)) {
                            continue;
                        }
                        long from = text.getStartOffset(r);
                        int length = (int) (text.getEndOffset(r) - from);
                        if (scratch.length < length) {
                            scratch = new byte[Math.max(length, scratch.length * 2)];
                        }
                        data.getBytes(from, scratch, 0, length);
                        if (!Uint64WindowRewrite.mayHold(scratch, 0, length)) {
                            continue;
                        }
                        byte[] quoted = Uint64WindowRewrite.rewrite(scratch, 0, length);
                        if (quoted == null) {
                            continue;
                        }
                        if (rewritten == null) {
                            if (columns == null) {
                                columns = new ArrayList<>();
                                for (int earlier = 0; earlier < b; earlier++) {
                                    columns.add(allNull(allocator, batch.batches().get(earlier).getRowCount(), owned));
                                }
                            }
                            rewritten = allNull(allocator, rows, owned);
                        }
                        rewritten.setSafe(r, quoted);
                        if (quoted != Uint64WindowRewrite.NULL_COMPANION) {
                            rewrittenRows++;
                        }
                    }
                    if (columns != null) {
                        columns.add(rewritten != null ? rewritten : allNull(allocator, rows, owned));
                    }
                }
                if (columns != null && columns.size() == batch.batches().size()) {
                    String name = HIDDEN_PREFIX + source.toLowerCase(Locale.ROOT);
                    while (!taken.add(name.toLowerCase(Locale.ROOT))) {
                        name = name + "_";
                    }
                    hidden.put(source, name);
                    perSource.put(name, columns);
                }
            }
            if (hidden.isEmpty()) {
                owned.forEach(FieldVector::close);
                return new CompanionInput(batch, Map.of(), 0, List.of());
            }
            return new CompanionInput(extended(batch, perSource), Map.copyOf(hidden), rewrittenRows, owned);
        } catch (RuntimeException e) {
            owned.forEach(FieldVector::close);
            throw e;
        }
    }

    private static VarCharVector allNull(BufferAllocator allocator, int rows, List<FieldVector> owned) {
        VarCharVector v = new VarCharVector("hidden", allocator);
        owned.add(v);
        v.allocateNew(rows);
        v.setValueCount(rows);
        return v;
    }

    /** The batch with the hidden columns appended, sharing every original vector. */
    private static FlushBatch extended(FlushBatch batch, Map<String, List<VarCharVector>> perSource) {
        List<Field> fields = new ArrayList<>(batch.schema().getFields());
        perSource.keySet().forEach(name -> fields.add(Field.nullable(name, new org.apache.arrow.vector.types.pojo
                .ArrowType.Utf8())));
        Schema schema = new Schema(fields);
        List<VectorSchemaRoot> roots = new ArrayList<>();
        for (int b = 0; b < batch.batches().size(); b++) {
            VectorSchemaRoot root = batch.batches().get(b);
            List<FieldVector> vectors = new ArrayList<>(root.getFieldVectors());
            for (List<VarCharVector> columns : perSource.values()) {
                vectors.add(columns.get(b));
            }
            roots.add(new VectorSchemaRoot(fields, vectors, root.getRowCount()));
        }
        return new FlushBatch(schema, roots, batch.rows(), batch.ranges(), batch.rejects());
    }

    FlushBatch batch() {
        return batch;
    }

    long rowsRewritten() {
        return rowsRewritten;
    }

    /**
     * The companion of {@code source} (batch spelling): the documented {@code try_cast(try_cast(col AS JSON) AS VARIANT)},
     * where col is the rewritten text on the rows that have one. Text DuckDB rejects as JSON keeps a NULL companion
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
