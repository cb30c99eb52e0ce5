package dev.millpond.sinks.hoglake;

import dev.millpond.config.HoglakePartitionField;
import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.RejectedRecord;
import dev.millpond.sinks.RejectsBatch;
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
import dev.millpond.sinks.hoglake.schema.LiveSpellings;
import dev.millpond.sinks.hoglake.schema.PayloadColumns;
import dev.millpond.sinks.hoglake.schema.RejectsTable;
import org.apache.arrow.memory.BufferAllocator;
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
 * batch to the live table, fans it out into one parquet file per partition tuple, writes the flush's rejects into
 * files of the rejects table, uploads each under the contract's name and builds the one commit request that
 * registers them all, in both tables. Nothing is published here.
 */
final class FlushPreparation {

    private static final Logger LOG = Logger.getLogger(FlushPreparation.class);
    /**
     * The most reject value bytes one rejects file holds; a flush's rejects take as many files as that needs (all in
     * its one commit), so the Arrow copy and the encoded file stay this small whatever the flush holds. A single
     * larger record is a file of its own.
     */
    static final long REJECTS_FILE_BYTES = 8L << 20;

    private final HoglakeObjectStore store;
    private final OrphanedFiles orphans;
    private final MillpondMetrics metrics;
    private final BufferAllocator allocator;
    private final String dataPath;
    private final String namespace;
    private final String table;
    private final List<HoglakePartitionField> partitionBy;
    private final String author;
    private final Set<String> warned = new HashSet<>();

    FlushPreparation(HoglakeObjectStore store, OrphanedFiles orphans, MillpondMetrics metrics,
            BufferAllocator allocator, String dataPath, String namespace, String table,
            List<HoglakePartitionField> partitionBy, String author) {
        this.store = store;
        this.orphans = orphans;
        this.metrics = metrics;
        this.allocator = allocator;
        this.dataPath = dataPath;
        this.namespace = namespace;
        this.table = table;
        this.partitionBy = List.copyOf(partitionBy);
        this.author = author;
    }

    /**
     * The flush's rows into {@code live} (when present) and its rejects into {@code rejects} (when present), as one
     * commit request; empty when neither has anything to publish.
     */
    Optional<PreparedFlush> prepare(FlushBatch batch, List<PayloadColumns.Sent> sent, Optional<TableInfo> live,
            Optional<TableInfo> rejects, UUID key, long insertedAtMicros) {
        List<TableAppend> appends = new ArrayList<>();
        List<String> uploaded = new ArrayList<>();
        long rows = 0;
        try {
            if (live.isPresent()) {
                Optional<TableAppend> data = rows(batch, sent, live.get(), key, insertedAtMicros, uploaded);
                if (data.isPresent()) {
                    appends.add(data.get());
                    rows = data.get().files().stream().mapToLong(FileRegistration::recordCount).sum();
                }
            }
            if (rejects.isPresent() && !batch.rejects().isEmpty()) {
                appends.add(rejects(batch.rejects(), rejects.get(), key, insertedAtMicros, uploaded));
            }
        } catch (RuntimeException e) {
            orphans.count(uploaded, "the flush failed while uploading: " + e.getMessage());
            throw e;
        }
        if (appends.isEmpty()) {
            return Optional.empty();
        }
        // Blind append (no read_snapshot), as millpond has always published: appends never conflict with appends,
        // and expected_table_uuid alone guards each table's incarnation. One request for both tables: the rows and
        // the rejects of a flush are published together or not at all, and its key's receipt answers for both.
        CommitRequest request = new CommitRequest(key.toString(), null, List.copyOf(appends), author, null);
        return Optional.of(new PreparedFlush(key, batch, request, uploaded, rows));
    }

    /** One file per partition tuple of the flush's rows; empty when the flush has no row. */
    private Optional<TableAppend> rows(FlushBatch batch, List<PayloadColumns.Sent> sent, TableInfo live, UUID key,
            long insertedAtMicros, List<String> uploaded) {
        LiveSpellings spelled = LiveSpellings.of(sent, batch.batches(), live);
        List<VectorSchemaRoot> batches = spelled.batches();
        List<Column> columns = fileColumns(live);
        Set<String> leftOut = align(batches, spelled.sent(), live, columns);
        Map<String, Object> constants = Map.of(PayloadColumns.INSERTED_AT, insertedAtMicros);
        List<PartitionFanout.Group> groups = PartitionFanout.groups(live, partitionBy, batches, constants);
        if (groups.isEmpty()) {
            return Optional.empty();
        }
        List<FileRegistration> files = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            PartitionFanout.Group g = groups.get(i);
            EncodedFile file = HoglakeParquetWriter.write(columns, batches, g.rows(), constants, leftOut);
            String uri = ObjectUri.dataFile(dataPath, namespace, table, key, i);
            store.put(uri, file.bytes());
            uploaded.add(uri);
            files.add(new FileRegistration(uri, file.recordCount(), file.bytes().length, file.footerSize(),
                    file.columnStats(), g.values()));
        }
        return Optional.of(new TableAppend(namespace, table, live.tableUuid(), List.copyOf(files)));
    }

    /**
     * The rejects in files of at most {@link #REJECTS_FILE_BYTES} of values each; {@code rejected_at} is the flush's
     * {@code _inserted_at} stamp.
     */
    private TableAppend rejects(List<RejectedRecord> rejects, TableInfo live, UUID key, long insertedAtMicros,
            List<String> uploaded) {
        List<Column> columns = fileColumns(live);
        Map<String, Object> constants = Map.of(RejectsTable.TABLE_NAME, table, RejectsTable.REJECTED_AT,
                insertedAtMicros);
        List<FileRegistration> files = new ArrayList<>();
        List<List<RejectedRecord>> slices = RejectedRecord.slices(rejects, REJECTS_FILE_BYTES);
        for (int i = 0; i < slices.size(); i++) {
            EncodedFile file;
            try (VectorSchemaRoot root = RejectsBatch.of(slices.get(i), allocator)) {
                file = HoglakeParquetWriter.write(columns, List.of(root), null, constants, Set.of());
            }
            String uri = ObjectUri.dataFile(dataPath, namespace, RejectsTable.NAME, key, i);
            store.put(uri, file.bytes());
            uploaded.add(uri);
            files.add(new FileRegistration(uri, file.recordCount(), file.bytes().length, file.footerSize(),
                    file.columnStats(), null));
        }
        return new TableAppend(namespace, RejectsTable.NAME, live.tableUuid(), List.copyOf(files));
    }

    /** The live table's top-level columns in ordinal order; types this writer cannot encode stay out of the file. */
    private List<Column> fileColumns(TableInfo live) {
        List<Column> columns = new ArrayList<>();
        live.columns().stream().sorted(Comparator.comparingInt(ColumnInfo::ordinal)).forEach(c -> {
            Optional<HoglakeColumnType> type = HoglakeColumnType.fromWireName(c.type());
            if (type.isPresent()) {
                columns.add(new Column(c.name(), c.fieldId(), type.get(), c.nullable()));
            } else if (warned.add("type:" + live.name() + "." + c.name())) {
                LOG.warnf("Column %s of hoglake table %s.%s is %s, which millpond does not write; its values are"
                        + " absent (null) in millpond's files", c.name(), namespace, live.name(), c.type());
            }
        });
        return columns;
    }

    /**
     * Batch columns whose type differs from the live column's. The live type wins: a castable column is written as
     * the live type (uuid ↔ string counts as a schema mismatch every flush, and its unparseable values as a
     * coercion); one that cannot be cast is left out, counted as a schema error.
     */
    private Set<String> align(List<VectorSchemaRoot> batches, List<PayloadColumns.Sent> sent, TableInfo live,
            List<Column> columns) {
        Set<String> leftOut = new HashSet<>();
        if (batches.isEmpty()) {
            return leftOut;
        }
        VectorSchemaRoot first = batches.get(0);
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
                    for (VectorSchemaRoot root : batches) {
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
