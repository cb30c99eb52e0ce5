package dev.millpond.sinks.hoglake.schema;

import dev.millpond.config.HoglakeConfig;
import dev.millpond.config.HoglakePartitionField;
import dev.millpond.config.HoglakeTransform;
import dev.millpond.sinks.hoglake.catalog.CatalogReply;
import dev.millpond.sinks.hoglake.catalog.HoglakeCatalogClient;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.AlterOp;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnDef;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.PartitionField;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.SetPartitionSpec;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.SetSortOrder;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.SortField;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWriteException;
import dev.millpond.sinks.hoglake.parquet.HoglakeColumnType;
import dev.millpond.sinks.hoglake.parquet.UnsupportedColumnTypeException;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the destination table, creating what is missing (namespace, then the table from the batch's columns plus
 * {@code _inserted_at}); another pod creating either first is fine. Every resolve then reconciles the live partition
 * spec and sort order with configuration: a match proceeds; a table without the layout configuration asks for gets it
 * in one alter (the first declaration, or the recovery when a crash fell between create and declare), and is verified;
 * any other divergence is fatal, printed in HOGLAKE_PARTITION_BY's grammar.
 */
public final class TableResolver {

    private static final Logger LOG = Logger.getLogger(TableResolver.class);

    private final HoglakeCatalogClient client;
    private final String catalog;
    private final String namespace;
    private final String table;
    private final TableLayout configured;
    private List<String> warnedMissingSort = List.of();

    /**
     * Resolves the table HOGLAKE_CATALOG, HOGLAKE_NAMESPACE and HOGLAKE_TABLE name, laid out by HOGLAKE_PARTITION_BY
     * and {@code sortBy} (MILLPOND_SORT_BY).
     */
    public TableResolver(HoglakeCatalogClient client, HoglakeConfig config, List<String> sortBy) {
        this.client = client;
        this.catalog = config.catalog();
        this.namespace = config.namespace();
        this.table = config.table();
        this.configured = new TableLayout(List.copyOf(config.partitionBy()), List.copyOf(sortBy));
    }

    public String qualified() {
        return namespace + "." + table;
    }

    /**
     * The live table as it is, without creating or reconciling anything; empty when it does not exist (yet).
     *
     * @throws HoglakeWriteException the control plane did not answer, or refused the read
     */
    public Optional<TableInfo> find() {
        CatalogReply<TableInfo> read = client.table(catalog, namespace, table);
        if (read.ok()) {
            return Optional.of(read.value());
        }
        if (read.failure().isNotFound()) {
            return Optional.empty();
        }
        throw new HoglakeWriteException("reading table " + qualified(), read.failure());
    }

    /** The live table, laid out as configured; created from {@code columns} when it does not exist. */
    public TableInfo resolve(List<PayloadColumns.Sent> columns) {
        CatalogReply<TableInfo> read = client.table(catalog, namespace, table);
        TableInfo info;
        if (read.ok()) {
            info = read.value();
        } else if (read.failure().isNotFound()) {
            info = create(columns);
        } else {
            throw new HoglakeWriteException("reading table " + qualified(), read.failure());
        }
        return reconcile(info);
    }

    private TableInfo create(List<PayloadColumns.Sent> columns) {
        Namespaces.ensure(client, catalog, namespace);
        List<ColumnDef> defs = new ArrayList<>();
        for (PayloadColumns.Sent c : columns) {
            defs.add(ColumnDef.scalar(c.name(), c.type().wireName(), true));
        }
        defs.add(ColumnDef.scalar(PayloadColumns.INSERTED_AT, HoglakeColumnType.TIMESTAMPTZ.wireName(), true));
        CatalogReply<TableInfo> created = client.createTable(catalog, namespace, table, defs);
        if (created.ok()) {
            LOG.infof("Created hoglake table %s.%s with %d columns", catalog, qualified(), defs.size());
            return created.value();
        }
        if (!created.failure().isAlreadyExists()) {
            throw new HoglakeWriteException("creating table " + qualified(), created.failure());
        }
        CatalogReply<TableInfo> again = client.table(catalog, namespace, table);
        if (!again.ok()) {
            throw new HoglakeWriteException("reading table " + qualified() + " another writer created",
                    again.failure());
        }
        return again.value();
    }

    private TableInfo reconcile(TableInfo info) {
        TableLayout live = TableLayout.of(info);
        List<AlterOp> ops = new ArrayList<>();
        if (!live.partitionBy().equals(configured.partitionBy())) {
            if (!live.partitionBy().isEmpty()) {
                throw new HoglakeLayoutException("Hoglake table " + qualified() + " is partitioned by "
                        + live.partitionGrammar() + " but HOGLAKE_PARTITION_BY is "
                        + (configured.partitionBy().isEmpty() ? "unset" : configured.partitionGrammar())
                        + " — a live table's partition spec cannot be changed through configuration: set"
                        + " HOGLAKE_PARTITION_BY=\"" + live.partitionGrammar() + "\" or point the pipeline at a new"
                        + " table");
            }
            ops.add(new SetPartitionSpec(partitionFields(info)));
        }
        if (!live.sortBy().equals(configured.sortBy())) {
            if (!live.sortBy().isEmpty()) {
                throw new HoglakeLayoutException("Hoglake table " + qualified() + " has sort order "
                        + live.sortGrammar() + " but MILLPOND_SORT_BY is "
                        + (configured.sortBy().isEmpty() ? "unset" : configured.sortGrammar())
                        + " — set MILLPOND_SORT_BY to match the table's sort order");
            }
            sortFields(info).ifPresent(fields -> ops.add(new SetSortOrder(fields)));
        }
        if (ops.isEmpty()) {
            return info;
        }
        CatalogReply<TableInfo> altered = client.alter(catalog, namespace, table, ops);
        if (!altered.ok()) {
            throw new HoglakeWriteException("declaring the layout of " + qualified(), altered.failure());
        }
        TableInfo after = altered.value();
        TableLayout declared = TableLayout.of(after);
        if (!declared.partitionBy().equals(configured.partitionBy())) {
            throw new HoglakeLayoutException("Hoglake table " + qualified() + " reads back partitioned by "
                    + declared.partitionGrammar() + " after declaring " + configured.partitionGrammar());
        }
        LOG.infof("Declared the layout of hoglake table %s: partitioned by %s, sorted by %s", qualified(),
                declared.partitionGrammar(), declared.sortGrammar());
        return after;
    }

    private List<PartitionField> partitionFields(TableInfo info) {
        List<PartitionField> fields = new ArrayList<>();
        for (HoglakePartitionField f : configured.partitionBy()) {
            ColumnInfo source = TableLayout.column(info, f.column()).orElseThrow(() -> new HoglakeLayoutException(
                    "HOGLAKE_PARTITION_BY names column '" + f.column() + "', which hoglake table " + qualified()
                            + " does not have"));
            HoglakeColumnType type = HoglakeColumnType.fromWireName(source.type()).orElseThrow(
                    () -> new HoglakeLayoutException("HOGLAKE_PARTITION_BY entry " + f.grammar() + ": column '"
                            + f.column() + "' is " + source.type() + ", which millpond cannot partition by"));
            try {
                PartitionValue.check(f.transform(), type);
            } catch (UnsupportedColumnTypeException e) {
                throw new HoglakeLayoutException("HOGLAKE_PARTITION_BY entry " + f.grammar() + ": "
                        + e.getMessage());
            }
            fields.add(new PartitionField(source.fieldId(), f.transform().wireName(),
                    f.transform() == HoglakeTransform.BUCKET ? f.bucketCount().getAsInt() : null));
        }
        return fields;
    }

    /** Empty (with one warning per missing set) while a sort column is not in the table yet. */
    private Optional<List<SortField>> sortFields(TableInfo info) {
        List<SortField> fields = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String name : configured.sortBy()) {
            Optional<ColumnInfo> c = TableLayout.column(info, name);
            if (c.isEmpty()) {
                missing.add(name);
            } else {
                fields.add(new SortField(c.get().fieldId(), TableLayout.ASC, TableLayout.NULLS_LAST));
            }
        }
        if (!missing.isEmpty()) {
            if (!missing.equals(warnedMissingSort)) {
                LOG.warnf("MILLPOND_SORT_BY names %s, not (yet) in hoglake table %s: its sort order is not declared"
                        + " (batches are still sorted on the fields they have)", missing, qualified());
                warnedMissingSort = List.copyOf(missing);
            }
            return Optional.empty();
        }
        return Optional.of(fields);
    }
}
