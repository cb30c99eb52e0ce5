package dev.millpond.sinks.hoglake.schema;

import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableInfo;
import dev.millpond.vocabulary.ColumnNames;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A batch's columns under the live table's spellings: a key that equals a live column ignoring case lands in that
 * column ({@link ColumnNames}) rather than becoming a second column beside it, as the DuckLake sink does through
 * DuckDB. The view shares the batch's vectors; only the names differ.
 *
 * @param sent    the columns to send, each under its live spelling when the table has one
 * @param batches the flush's batches with the same names (the caller's, unchanged, when nothing is renamed); views
 *                over the caller's vectors, never to be closed
 */
public record LiveSpellings(List<PayloadColumns.Sent> sent, List<VectorSchemaRoot> batches) {

    /** The live column {@code name} lands in: exactly that name, else the table's spelling of it. */
    public static Optional<ColumnInfo> column(TableInfo live, String name) {
        List<String> names = live.columns().stream().map(ColumnInfo::name).toList();
        return ColumnNames.liveSpelling(name, names)
                .flatMap(spelled -> live.columns().stream().filter(c -> c.name().equals(spelled)).findFirst());
    }

    public static LiveSpellings of(List<PayloadColumns.Sent> sent, List<VectorSchemaRoot> batches, TableInfo live) {
        Map<String, String> renamed = new HashMap<>();
        List<PayloadColumns.Sent> spelled = new ArrayList<>(sent.size());
        for (PayloadColumns.Sent s : sent) {
            Optional<ColumnInfo> column = column(live, s.name());
            if (column.isPresent() && !column.get().name().equals(s.name())) {
                renamed.put(s.name(), column.get().name());
                spelled.add(s.named(column.get().name()));
            } else {
                spelled.add(s);
            }
        }
        if (renamed.isEmpty()) {
            return new LiveSpellings(List.copyOf(sent), batches);
        }
        List<VectorSchemaRoot> views = new ArrayList<>(batches.size());
        for (VectorSchemaRoot root : batches) {
            List<Field> fields = root.getSchema().getFields().stream().map(f -> renamed.containsKey(f.getName())
                    ? new Field(renamed.get(f.getName()), f.getFieldType(), f.getChildren()) : f).toList();
            views.add(new VectorSchemaRoot(fields, root.getFieldVectors(), root.getRowCount()));
        }
        return new LiveSpellings(List.copyOf(spelled), List.copyOf(views));
    }
}
