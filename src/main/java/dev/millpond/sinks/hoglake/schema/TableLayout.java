package dev.millpond.sinks.hoglake.schema;

import dev.millpond.config.HoglakePartitionField;
import dev.millpond.config.HoglakeTransform;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.PartitionField;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.SortField;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A table's partition spec and sort order in configuration's terms: partition fields as HOGLAKE_PARTITION_BY entries
 * (so a divergence prints in the grammar an operator can paste back) and sort keys as MILLPOND_SORT_BY column names,
 * ascending with nulls last, the only order millpond declares. A key declared otherwise by another writer prints
 * with its direction and null order, so it never compares equal to configuration.
 */
public record TableLayout(List<HoglakePartitionField> partitionBy, List<String> sortBy) {

    static final String ASC = "asc";
    static final String NULLS_LAST = "nulls_last";

    public static TableLayout of(TableInfo table) {
        List<HoglakePartitionField> partitions = new ArrayList<>();
        if (table.partitionSpec() != null && table.partitionSpec().fields() != null) {
            for (PartitionField f : table.partitionSpec().fields()) {
                String column = nameOf(table, f.sourceFieldId());
                HoglakeTransform transform = HoglakeTransform.fromWireName(f.transform()).orElseThrow(
                        () -> new HoglakeLayoutException("Hoglake table " + table.namespace() + "." + table.name()
                                + " is partitioned with transform '" + f.transform() + "', which millpond does not"
                                + " write"));
                partitions.add(new HoglakePartitionField(column, transform, transform == HoglakeTransform.BUCKET
                        ? OptionalInt.of(f.transformParam() == null ? 0 : f.transformParam()) : OptionalInt.empty()));
            }
        }
        List<String> sort = new ArrayList<>();
        if (table.sortSpec() != null && table.sortSpec().fields() != null) {
            for (SortField f : table.sortSpec().fields()) {
                String column = nameOf(table, f.sourceFieldId());
                sort.add(ASC.equals(f.direction()) && NULLS_LAST.equals(f.nullOrder()) ? column
                        : column + " " + f.direction() + " " + f.nullOrder());
            }
        }
        return new TableLayout(List.copyOf(partitions), List.copyOf(sort));
    }

    /** A top-level column by field id; a nested source prints as its field id (millpond never declares one). */
    private static String nameOf(TableInfo table, long fieldId) {
        return column(table, fieldId).map(ColumnInfo::name).orElse("field#" + fieldId);
    }

    static Optional<ColumnInfo> column(TableInfo table, long fieldId) {
        return table.columns().stream().filter(c -> c.fieldId() == fieldId).findFirst();
    }

    public static Optional<ColumnInfo> column(TableInfo table, String name) {
        return table.columns().stream().filter(c -> c.name().equals(name)).findFirst();
    }

    public String partitionGrammar() {
        return partitionBy.isEmpty() ? "(unpartitioned)" : HoglakePartitionField.grammar(partitionBy);
    }

    String sortGrammar() {
        return sortBy.isEmpty() ? "(unsorted)" : String.join(",", sortBy);
    }
}
