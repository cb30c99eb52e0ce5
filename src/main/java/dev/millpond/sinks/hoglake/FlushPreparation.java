package dev.millpond.sinks.hoglake;

import dev.millpond.config.HoglakePartitionField;
import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CommitRequest;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.FileRegistration;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableAppend;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableInfo;
import dev.millpond.sinks.hoglake.parquet.HoglakeColumnType;
import dev.millpond.sinks.hoglake.parquet.HoglakeParquetWriter;
import dev.millpond.sinks.hoglake.parquet.HoglakeParquetWriter.Column;
import dev.millpond.sinks.hoglake.parquet.HoglakeParquetWriter.EncodedFile;
import dev.millpond.sinks.hoglake.parquet.LiveTypeCasts;
import dev.millpond.sinks.hoglake.schema.PayloadColumns;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.Comparator;

/**
 * Prepares one flush for publication: stamps {@code _inserted_at} (one value for every row of the flush), aligns the
 * batch to the live table, fans it out into one parquet file per partition tuple, uploads each under the contract's
 * name and builds the one commit request that registers them all. Nothing is published here.
 */
final class FlushPreparation {

    private static final Logger LOG = Logger.getLogger(FlushPreparation.class);

    private final HoglakeObjectStore store;
    private final OrphanedFiles orphans;
    private final MillpondMetrics metrics;
    private final String dataPath;
    private final String namespace;
    private final String table;
    private final List<HoglakePartitionField> partitionBy;
    private final String author;
    private final Set<String> warned = new HashSet<>();

    FlushPreparation(HoglakeObjectStore store, OrphanedFiles orphans, MillpondMetrics metrics, String dataPath,
            String namespace, String table, List<HoglakePartitionField> partitionBy, String author) {
        this.store = store;
        this.orphans = orphans;
        this.metrics = metrics;
        this.dataPath = dataPath;
        this.namespace = namespace;
        this.table = table;
        this.partitionBy = List.copyOf(partitionBy);
        this.author = author;
    }

    /** Empty when the flush has no row to publish. */
    Optional<PreparedFlush> prepare(FlushBatch batch, List<PayloadColumns.Sent> sent, TableInfo live, UUID key,
            long insertedAtMicros) {
        List<Column> columns = fileColumns(live);
        Set<String> leftOut = align(batch, sent, live, columns);
        Map<String, Object> constants = Map.of(PayloadColumns.INSERTED_AT, insertedAtMicros);
        List<PartitionFanout.Group> groups = PartitionFanout.groups(live, partitionBy, batch.batches(), constants);
        if (groups.isEmpty()) {
            return Optional.empty();
        }
        List<String> uploaded = new ArrayList<>();
        List<FileRegistration> files = new ArrayList<>();
        long rows = 0;
        try {
            for (int i = 0; i < groups.size(); i++) {
                PartitionFanout.Group g = groups.get(i);
                EncodedFile file = HoglakeParquetWriter.write(columns, batch.batches(), g.rows(), constants, leftOut);
                String uri = ObjectUri.dataFile(dataPath, namespace, table, key, i);
                store.put(uri, file.bytes());
                uploaded.add(uri);
                files.add(new FileRegistration(uri, file.recordCount(), file.bytes().length, file.footerSize(),
                        file.columnStats(), g.values()));
                rows += file.recordCount();
            }
        } catch (RuntimeException e) {
            orphans.count(uploaded, "the flush failed while uploading: " + e.getMessage());
            throw e;
        }
        // Blind append (no read_snapshot), as millpond has always published: appends never conflict with appends,
        // and expected_table_uuid alone guards the incarnation.
        CommitRequest request = new CommitRequest(key.toString(), null,
                List.of(new TableAppend(namespace, table, live.tableUuid(), List.copyOf(files))), author, null);
        return Optional.of(new PreparedFlush(key, batch, request, uploaded, rows));
    }

    /** The live table's top-level columns in ordinal order; types this writer cannot encode stay out of the file. */
    private List<Column> fileColumns(TableInfo live) {
        List<Column> columns = new ArrayList<>();
        live.columns().stream().sorted(Comparator.comparingInt(ColumnInfo::ordinal)).forEach(c -> {
            Optional<HoglakeColumnType> type = HoglakeColumnType.fromWireName(c.type());
            if (type.isPresent()) {
                columns.add(new Column(c.name(), c.fieldId(), type.get(), c.nullable()));
            } else if (warned.add("type:" + c.name())) {
                LOG.warnf("Column %s of hoglake table %s.%s is %s, which millpond does not write; its values are"
                        + " absent (null) in millpond's files", c.name(), namespace, table, c.type());
            }
        });
        return columns;
    }

    /**
     * Batch columns whose type differs from the live column's. The live type wins: a castable column is written as
     * the live type (uuid ↔ string counts as a schema mismatch every flush, and its unparseable values as a
     * coercion); one that cannot be cast is left out, counted as a schema error.
     */
    private Set<String> align(FlushBatch batch, List<PayloadColumns.Sent> sent, TableInfo live,
            List<Column> columns) {
        Set<String> leftOut = new HashSet<>();
        if (batch.batches().isEmpty()) {
            return leftOut;
        }
        VectorSchemaRoot first = batch.batches().get(0);
        for (PayloadColumns.Sent s : sent) {
            Optional<Column> target = columns.stream().filter(c -> c.name().equals(s.name())).findFirst();
            if (target.isEmpty()) {
                continue; // the catalog refused to add it: counted when it refused
            }
            HoglakeColumnType liveType = target.get().type();
            if (liveType == s.type()) {
                continue;
            }
            FieldVector vector = first.getVector(s.name());
            if (!HoglakeParquetWriter.writable(target.get(), vector)) {
                leftOut.add(s.name());
                metrics.error(ErrorType.SCHEMA);
                warnOnce("Column " + s.name() + " is " + s.type().wireName() + " in the batch but "
                        + liveType.wireName() + " in hoglake table " + namespace + "." + table
                        + "; it cannot be cast and is written as null");
                continue;
            }
            boolean uuidRewrite = liveType == HoglakeColumnType.UUID && s.type() == HoglakeColumnType.STRING
                    || liveType == HoglakeColumnType.STRING && s.type() == HoglakeColumnType.UUID;
            if (uuidRewrite) {
                metrics.error(ErrorType.SCHEMA);
                warnOnce("Column " + s.name() + " is " + s.type().wireName() + " in the batch but "
                        + liveType.wireName() + " in hoglake table " + namespace + "." + table + "; the live type"
                        + " wins and values are rewritten (" + (liveType == HoglakeColumnType.UUID
                        ? "text parsed to uuid, non-UUIDs nulled" : "uuid written as canonical text") + ")");
                if (liveType == HoglakeColumnType.UUID) {
                    long bad = 0;
                    for (VectorSchemaRoot root : batch.batches()) {
                        if (root.getVector(s.name()) instanceof VarCharVector text) {
                            bad += LiveTypeCasts.unparseableUuids(text);
                        }
                    }
                    if (bad > 0) {
                        metrics.error(ErrorType.COLUMN_COERCION);
                        LOG.warnf("Column %s: %d value(s) are not UUIDs and are written as NULL", s.name(), bad);
                    }
                }
            }
        }
        return leftOut;
    }

    private void warnOnce(String message) {
        if (warned.add(message)) {
            LOG.warn(message);
        }
    }
}
