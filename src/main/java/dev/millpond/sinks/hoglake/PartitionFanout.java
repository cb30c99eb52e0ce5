package dev.millpond.sinks.hoglake;

import dev.millpond.config.HoglakePartitionField;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableInfo;
import dev.millpond.sinks.hoglake.parquet.HoglakeColumnType;
import dev.millpond.sinks.hoglake.parquet.LiveTypeCasts;
import dev.millpond.sinks.hoglake.schema.HoglakeLayoutException;
import dev.millpond.sinks.hoglake.schema.PartitionValue;
import dev.millpond.sinks.hoglake.schema.TableLayout;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.Collections;

/**
 * Splits a flush into one group of rows per partition tuple under the table's live spec, in order of each tuple's
 * first row (as pyhoglake orders them); an unpartitioned table is one group without a tuple. Values are computed
 * here, client-side, with Iceberg's transforms: the server stores the strings it is sent.
 */
final class PartitionFanout {

    /** One file's worth of rows: the tuple ({@code null} when unpartitioned) and, per batch, the row indexes. */
    record Group(List<String> values, List<int[]> rows, long count) {
    }

    private PartitionFanout() {
    }

    /**
     * @param constants columns every row shares a value of (the flush's {@code _inserted_at}), in Iceberg form
     */
    static List<Group> groups(TableInfo table, List<HoglakePartitionField> spec, List<VectorSchemaRoot> batches,
            Map<String, Object> constants) {
        if (spec.isEmpty()) {
            List<int[]> all = new ArrayList<>();
            long count = 0;
            for (VectorSchemaRoot b : batches) {
                all.add(null);
                count += b.getRowCount();
            }
            return count == 0 ? List.of() : List.of(new Group(null, all, count));
        }
        int fields = spec.size();
        List<Function<Object, String>> binders = new ArrayList<>();
        List<HoglakeColumnType> types = new ArrayList<>();
        for (HoglakePartitionField f : spec) {
            ColumnInfo source = TableLayout.column(table, f.column()).orElseThrow(() -> new HoglakeLayoutException(
                    "partition column '" + f.column() + "' is not in the table"));
            HoglakeColumnType type = HoglakeColumnType.fromWireName(source.type()).orElseThrow(
                    () -> new HoglakeLayoutException("cannot partition by " + source.type() + " column '"
                            + f.column() + "'"));
            types.add(type);
            binders.add(PartitionValue.binder(f.transform(), f.bucketCount(), type));
        }
        Map<List<String>, Builder> tuples = new LinkedHashMap<>();
        for (int b = 0; b < batches.size(); b++) {
            VectorSchemaRoot root = batches.get(b);
            FieldVector[] sources = new FieldVector[fields];
            String[] constantValues = new String[fields];
            boolean[] constant = new boolean[fields];
            for (int f = 0; f < fields; f++) {
                String column = spec.get(f).column();
                if (constants.containsKey(column)) {
                    constant[f] = true;
                    constantValues[f] = binders.get(f).apply(constants.get(column));
                } else {
                    sources[f] = root.getVector(column);
                }
            }
            for (int r = 0; r < root.getRowCount(); r++) {
                String[] tuple = new String[fields];
                for (int f = 0; f < fields; f++) {
                    tuple[f] = constant[f] ? constantValues[f] : sources[f] == null ? null
                            : binders.get(f).apply(LiveTypeCasts.icebergValue(types.get(f), sources[f], r));
                }
                final int batchCount = batches.size();
                tuples.computeIfAbsent(Arrays.asList(tuple), k -> new Builder(batchCount)).add(b, r);
            }
        }
        List<Group> groups = new ArrayList<>();
        tuples.forEach((tuple, builder) -> groups.add(builder.build(tuple)));
        return groups;
    }

    /** The row indexes of one tuple, per batch. */
    private static final class Builder {
        private final int[][] rows;
        private final int[] sizes;
        private long count;

        Builder(int batches) {
            rows = new int[batches][];
            sizes = new int[batches];
        }

        void add(int batch, int row) {
            int[] r = rows[batch];
            if (r == null) {
                r = rows[batch] = new int[16];
            } else if (sizes[batch] == r.length) {
                r = rows[batch] = Arrays.copyOf(r, r.length * 2);
            }
            r[sizes[batch]++] = row;
            count++;
        }

        Group build(List<String> tuple) {
            List<int[]> out = new ArrayList<>();
            for (int b = 0; b < rows.length; b++) {
                out.add(rows[b] == null ? new int[0] : Arrays.copyOf(rows[b], sizes[b]));
            }
            return new Group(Collections.unmodifiableList(new ArrayList<>(tuple)), out, count);
        }
    }
}
