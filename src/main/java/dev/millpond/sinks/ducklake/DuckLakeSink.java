package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.ducklake.Jdbc;
import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.SkipReason;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.RecordedOffsets;
import dev.millpond.sinks.RejectedRecord;
import dev.millpond.sinks.RejectsBatch;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.WriteFailure;
import dev.millpond.vocabulary.Identifiers;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.duckdb.DuckDBConnection;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Writes flushes into a DuckLake table through DuckDB: the Arrow batches are handed to DuckDB through the Arrow C
 * stream interface (no row-by-row copy) and inserted in one statement, so one flush is one DuckLake snapshot with one
 * {@code _inserted_at}. With lake offsets on (the default) that snapshot also holds the flush's Kafka offsets in
 * {@code _millpond_offsets} ({@link LakeOffsets}), which is what makes a restart after a crash exactly-once.
 *
 * <p>Before the INSERT the batch is planned (unsafe and reserved keys dropped, VARIANT companion collisions), the table
 * is created or evolved ({@link LiveTable}) and every column is aligned to the live type ({@link AlignedColumn}), so no
 * payload can make the INSERT fail on data. Not thread-safe: one sink per pump thread.
 */
public final class DuckLakeSink implements Sink {

    private static final Logger LOG = Logger.getLogger(DuckLakeSink.class);
    private static final String STREAM_PREFIX = "_arrow_batch_";
    /**
     * DuckDB's memory for one shredded VARIANT column, as its memory limit counts it: a string dictionary of 1 MiB for
     * each {@code value} and text {@code typed_value} column, plus the column's share of a row group (0.6–1.2 MiB a
     * column measured, docs/variant.md).
     */
    static final long LEAF_BYTES = 1_310_720;
    /**
     * What DuckDB takes for any INSERT with VARIANT companions beside their columns: on a Postgres catalog one block of
     * 76.5 MiB whatever the rows or their keys (a DuckDB-file catalog needs none), so a limit below ~80 MiB cannot
     * write a companion at all (docs/variant.md).
     */
    static final long VARIANT_INSERT_BYTES = 80L << 20;
    /** The most INSERTs the companions' plan may cut one group of a flush into at the first attempt. */
    static final int MAX_SHRED_SLICES = 16;

    private final MillpondMetrics metrics;
    private final BufferAllocator allocator;
    private final Connection connection;
    private final DuckDBConnection duck;
    private final LakeTable table;
    private final LiveTable liveTable;
    private final VariantCompanions variants;
    /** The row group bound on this sink's table; empty without a memory budget. */
    private final Optional<TableRowGroupSize> rowGroupSize;
    private final TableParquetCodec codec;
    /** A flush of wide rows goes in several INSERTs of at most {@code insertSliceBytes} ({@link InsertSlices}). */
    private final long rowGroupRows;
    private final long insertSliceBytes;
    /** Empty when MILLPOND_LAKE_OFFSETS=false: then a flush is a plain INSERT and Kafka alone holds the position. */
    private final Optional<LakeOffsets> offsets;
    /** Present with the offsets: refuses a flush of records the lake already holds (a second owner's). */
    private final Optional<PartitionFence> fence;
    /** Empty when MILLPOND_REJECTS=false: then a flush's rejects are counted and dropped, as before. */
    private final Optional<LakeRejects> rejects;

    private final OrphanedUploads orphans;
    /** The partition keys whose values DuckLake records as text: a value there must not hold U+0000. */
    private final Set<String> partitionValueColumns;
    /** DuckDB's memory limit in bytes as DuckDB reports it; empty when it cannot be read. */
    private final java.util.OptionalLong duckDbMemoryBytes;

    private long streamSequence;
    private boolean companionTableNotInlined;
    private boolean offsetsTableEnsured;
    /** When the first failed attempt of the current flush started; 0 while no attempt has failed. */
    private long failingSinceMillis;

    public DuckLakeSink(DuckLakeSinkSettings settings, MillpondMetrics metrics, BufferAllocator allocator) throws SQLException {
        this.metrics = metrics;
        this.allocator = allocator;
        this.connection = open(settings);
        this.duck = connection.unwrap(DuckDBConnection.class);
        this.table = new LakeTable(connection, settings.schema(), settings.table(), settings.maxRetryCount());
        this.liveTable = new LiveTable(table, metrics, settings.partitionBy(), settings.landing().maxTableColumns());
        this.variants = new VariantCompanions(settings.variantSources());
        this.partitionValueColumns = settings.partitionBy().map(PartitionKeys::valueColumns).orElse(Set.of());
        this.rowGroupSize = settings.resources().map(r -> new TableRowGroupSize(connection, settings.schema(),
                settings.table(), r.rowGroupRows()));
        this.codec = new TableParquetCodec(connection, settings.schema(), settings.table());
        this.rowGroupRows = settings.resources().map(DuckDbResources::rowGroupRows).orElse(Long.MAX_VALUE);
        this.insertSliceBytes = settings.resources().map(DuckDbResources::insertSliceBytes).orElse(Long.MAX_VALUE);
        this.offsets = settings.lakeOffsetsGroupId()
                .map(group -> new LakeOffsets(connection, settings.schema(), settings.table(), group));
        try {
            this.fence = offsets.isEmpty() ? Optional.empty()
                    : Optional.of(PartitionFence.open(duck, settings, offsets.get(), table.displayName()));
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
        this.rejects = settings.landing().rejects()
                ? Optional.of(new LakeRejects(connection, settings.schema(), settings.table())) : Optional.empty();
        List<String> tables = new ArrayList<>(List.of(settings.table()));
        offsets.ifPresent(o -> tables.add(LakeOffsets.TABLE));
        rejects.ifPresent(r -> tables.add(LakeRejects.TABLE));
        this.orphans = new OrphanedUploads(connection, settings.dataPath(), settings.schema(), List.copyOf(tables),
                metrics);
        try {
            ensureOffsetsTable();
        } catch (SQLException | RuntimeException e) {
            // The lake attached but its side tables could not be made: a startup that is tried again must not keep
            // one DuckDB instance per attempt.
            fence.ifPresent(PartitionFence::close);
            connection.close();
            throw e;
        }
        this.duckDbMemoryBytes = settings.resources().isPresent() || settings.memoryLimit().isPresent()
                ? DuckDbMemory.limitBytes(connection) : java.util.OptionalLong.empty();
        LOG.infof("DuckLake attached: catalog=%s data_path=%s table=%s", settings.catalog(), settings.dataPath(),
                table.qualified());
    }

    private static Connection open(DuckLakeSinkSettings settings) throws SQLException {
        Connection c = settings.attachment().open();
        if (settings.resources().isPresent()) {
            try {
                Jdbc.execute(c, "SET threads = " + settings.resources().get().threads());
            } catch (SQLException e) {
                c.close();
                throw e;
            }
        }
        return c;
    }

    @Override
    public long write(FlushBatch batch, int attempt) throws SQLException {
        long started = System.currentTimeMillis();
        long written;
        try {
            written = writeAttempt(batch, attempt);
        } catch (SQLException | RuntimeException e) {
            if (failingSinceMillis == 0) {
                failingSinceMillis = started;
            }
            throw e;
        }
        if (failingSinceMillis != 0) {
            countOrphanedUploads(failingSinceMillis, started);
            failingSinceMillis = 0;
        }
        return written;
    }

    /** The failed attempts' uploads that no snapshot references; counting them must never fail the flush. */
    private void countOrphanedUploads(long fromMillis, long toMillis) {
        try {
            orphans.countCreatedBetween(fromMillis, toMillis);
        } catch (SQLException | RuntimeException e) {
            LOG.debugf("Could not look for orphaned uploads: %s", e.getMessage());
        }
    }

    private long writeAttempt(FlushBatch batch, int attempt) throws SQLException {
        if (attempt > 1) {
            forgetCachedState();
            // Before the check below: an offsets table dropped since the last attempt reads as "nothing recorded".
            ensureOffsetsTable();
            if (alreadyInTheLake(batch)) {
                LOG.warnf("The previous attempt's commit of this %d-row flush reached the lake after all; not writing"
                        + " it again", batch.rows());
                return batch.rows();
            }
        }
        List<Field> columns = batch.batches().isEmpty() ? List.of() : plannedColumns(batch);
        if (columns.isEmpty()) {
            // No row to insert (only rejects, or every column dropped by design and counted): the rejects and the
            // offsets still land together, so the lake's record of each partition has no hole where they were.
            if (hasRejectsToKeep(batch) || recordsOffsets(batch) || replays(batch)) {
                ensureOffsetsTable();
                inOneCommit(null, batch);
            }
            return 0;
        }
        liveTable.ensure(columns);
        rowGroupSize.ifPresent(TableRowGroupSize::ensure);
        codec.ensure();
        LiveSchema live = liveTable.evolve(columns);
        List<VariantCompanions.Source> dualWritten = liveTable.ensureCompanions(variants.sourcesIn(columns));
        if (!dualWritten.isEmpty() && !companionTableNotInlined) {
            // An inlined VARIANT holding a mixed array ([1,"a"]) fails DuckLake's commit on a DuckDB-file catalog (a
            // Postgres catalog never inlines VARIANT columns): every flush of the table goes to parquet instead.
            NoInlining.ensure(connection, table.schema(), table.name(),
                    "its VARIANT companions are written to parquet files, never into the catalog");
            companionTableNotInlined = true;
        }
        List<AlignedColumn> aligned = align(columns, live);
        if (aligned.isEmpty()) {
            throw new NoColumnToInsertException(batch.rows(), columns.size(), table.displayName());
        }
        countNulledValues(batch, aligned);
        ensureOffsetsTable();
        // A source the live table lacks (its ADD was refused) has nothing to dual-write next to.
        List<VariantCompanions.Source> dual = dualWritten.stream()
                .filter(s -> aligned.stream().anyMatch(a -> a.batchName().equals(s.batchName()))).toList();
        if (dual.isEmpty()) {
            return insert(batch, aligned, List.of(), null);
        }
        List<FlushBatch> groups = InsertSlices.of(batch, rowGroupRows, insertSliceBytes);
        try (CompanionInput input = CompanionInput.of(batch, groups,
                dual.stream().map(VariantCompanions.Source::batchName).toList(), shredding(attempt), allocator)) {
            long rows;
            try {
                rows = insert(batch, aligned, dual, input);
            } catch (SQLException e) {
                if (!CompanionFailure.isOverflow(e)) {
                    throw e;
                }
                LOG.warnf("This %d-row flush failed with its VARIANT companions on an integer out of range for the"
                        + " shredded column (%s); writing it again without companions (offsets %s)", batch.rows(),
                        CompanionFailure.firstLine(e), OffsetRange.describe(batch.ranges()));
                rows = insert(batch, aligned, List.of(), null);
                metrics.error(ErrorType.VARIANT_WRITE);
                metrics.variantWriteFallback();
                return rows;
            }
            if (input.rowsRewritten() > 0) {
                metrics.variantValuesCoerced(input.rowsRewritten());
            }
            reportNulled(input, dual, batch);
            return rows;
        }
    }

    /**
     * The shredding budget of attempt {@code attempt}: DuckDB's memory limit less a quarter for the rest of the write
     * and {@link #VARIANT_INSERT_BYTES}, at {@link #LEAF_BYTES} a shredded column. A retry after a failure (DuckDB out of memory among them) halves it and
     * allows twice the INSERTs, so each INSERT analyses fewer paths; empty where DuckDB's memory is not bounded.
     */
    private Optional<CompanionInput.Shredding> shredding(int attempt) {
        if (duckDbMemoryBytes.isEmpty()) {
            return Optional.empty();
        }
        int halvings = Math.min(Math.max(attempt - 1, 0), 4);
        long budget = Math.max(0, duckDbMemoryBytes.getAsLong() * 3 / 4 - VARIANT_INSERT_BYTES) / LEAF_BYTES >> halvings;
        long rowGroup = rowGroupSize.map(TableRowGroupSize::effectiveRows).orElse(TableRowGroupSize.DUCKLAKE_DEFAULT_ROWS);
        return Optional.of(new CompanionInput.Shredding(rowGroup, Math.max(budget, 1), MAX_SHRED_SLICES << halvings));
    }

    /** Companions a committed flush wrote as NULL for a source that is JSON: counted and warned, per column and reason. */
    private void reportNulled(CompanionInput input, List<VariantCompanions.Source> dual, FlushBatch batch) {
        for (VariantCompanions.Source source : dual) {
            Map<String, Long> reasons = input.nulled().getOrDefault(source.batchName(), Map.of());
            for (Map.Entry<String, Long> reason : reasons.entrySet()) {
                metrics.variantCompanionsNulled(source.companion(), reason.getKey(), reason.getValue());
                LOG.warnf("%d row(s) of this flush got a NULL %s although their %s is JSON (%s; offsets %s)",
                        reason.getValue(), source.companion(), source.batchName(), reason.getKey(),
                        OffsetRange.describe(batch.ranges()));
            }
        }
    }

    /**
     * The flush's rows: one INSERT per group of batches ({@link InsertSlices}), or per slice of the companions' plan
     * ({@link CompanionInput#inserts()}); several INSERTs, rejects and offsets in one transaction.
     */
    private long insert(FlushBatch rows, List<AlignedColumn> aligned, List<VariantCompanions.Source> dual,
                        CompanionInput input) throws SQLException {
        StringBuilder projected = new StringBuilder(
                aligned.stream().map(AlignedColumn::projection).collect(Collectors.joining(", ")));
        for (VariantCompanions.Source s : dual) {
            projected.append(", ").append(input.projection(s.batchName())).append(" AS ")
                    .append(DuckLakeSql.ident(s.companion()));
        }
        projected.append(", NOW() AS _inserted_at");
        String select = "SELECT " + projected + " FROM ";
        String into = "INSERT INTO " + table.qualified() + " BY NAME (";
        List<CompanionInput.Insert> inserts = input != null ? input.inserts()
                : InsertSlices.of(rows, rowGroupRows, insertSliceBytes).stream()
                .map(g -> new CompanionInput.Insert(g, null, false)).toList();
        String slot = input == null ? null : DuckLakeSql.ident(input.slotColumn() == null ? "" : input.slotColumn());
        RowsInsert all = () -> {
            long written = 0;
            for (CompanionInput.Insert insert : inserts) {
                written += insertOne(insert, into, select, slot);
            }
            return written;
        };
        if (inserts.size() == 1 && !recordsOffsets(rows) && !hasRejectsToKeep(rows) && !replays(rows)) {
            return all.run();
        }
        // Several INSERTs of one flush are one transaction too, so a failed attempt leaves none of them behind.
        return inOneCommit(all, rows);
    }

    /**
     * One INSERT. A filtered one streams the batches twice, as two registered streams, so that a slice's prefix
     * reaches DuckDB's parquet writer before its rest ({@link ShredPlan}); DuckDB keeps a UNION ALL's order.
     */
    private long insertOne(CompanionInput.Insert insert, String into, String select, String slot) throws SQLException {
        if (!insert.filtered()) {
            return withStreams(insert.rows(), 1, s -> Jdbc.update(connection, into + select + s.get(0) + ")"));
        }
        ShredPlan.Slice slice = insert.slice();
        if (!slice.hasRest()) {
            return withStreams(insert.rows(), 1, s -> Jdbc.update(connection,
                    into + select + s.get(0) + " WHERE " + slot + " = " + slice.prefixSlot() + ")"));
        }
        return withStreams(insert.rows(), 2, s -> Jdbc.update(connection,
                into + select + s.get(0) + " WHERE " + slot + " = " + slice.prefixSlot() + " UNION ALL "
                        + select + s.get(1) + " WHERE " + slot + " = " + slice.restSlot() + ")"));
    }

    /** Writes a flush's rows inside its transaction; returns how many. */
    private interface RowsInsert {
        long run() throws SQLException;
    }

    private boolean hasRejectsToKeep(FlushBatch batch) {
        return rejects.isPresent() && !batch.rejects().isEmpty();
    }

    private boolean recordsOffsets(FlushBatch batch) {
        return offsets.isPresent() && !batch.ranges().isEmpty();
    }

    /** A replay of kept rejects: its commit also removes the rejects-table rows it lands again. */
    private boolean replays(FlushBatch batch) {
        return rejects.isPresent() && !batch.replayed().isEmpty();
    }

    /**
     * A COMMIT can fail on the client after the catalog applied it (the connection dropped on the way back). Before a
     * retry writes the flush again, the offsets it would record tell whether the lake has it already. A failed read
     * fails the attempt: without the answer, writing again could land the flush twice.
     */
    private boolean alreadyInTheLake(FlushBatch batch) throws SQLException {
        if (replays(batch)) {
            // The replayed rows leave the rejects table in the commit that lands them, and only then.
            return rejects.orElseThrow().stillKept(batch.replayed()) == 0;
        }
        if (offsets.isEmpty() || batch.ranges().isEmpty()) {
            return false;
        }
        Map<String, Map<Integer, Long>> recorded = new HashMap<>();
        for (OffsetRange range : batch.ranges()) {
            String key = range.topic() + range.topicId().map(id -> "#" + id).orElse("");
            Map<Integer, Long> topic = recorded.get(key);
            if (topic == null) {
                topic = recordedFor(range);
                recorded.put(key, topic);
            }
            if (topic.getOrDefault(range.partition(), Long.MIN_VALUE) < range.next()) {
                return false;
            }
        }
        return true;
    }

    /** What the lake recorded for the range's topic: by its id where the range knows it (see LakeOffsets). */
    private Map<Integer, Long> recordedFor(OffsetRange range) throws SQLException {
        return range.topicId().isPresent()
                ? offsets.orElseThrow().recorded(range.topic(), range.topicId().get()).next()
                : offsets.orElseThrow().recorded(range.topic());
    }

    /** Creates the offsets and rejects tables at construction, and again on a retry in case they were dropped. */
    private void ensureOffsetsTable() throws SQLException {
        if (!offsetsTableEnsured) {
            if (offsets.isPresent()) {
                offsets.get().ensureTable();
            }
            if (rejects.isPresent()) {
                rejects.get().ensureTable();
            }
            offsetsTableEnsured = true;
        }
    }

    /**
     * The rows ({@code insertRows}, one INSERT or several, null when the flush has none), the records set aside as rejects and the offsets
     * they all cover in one DuckLake transaction, so one snapshot holds all of them or none; a replay's removal of
     * the rejects it lands again is in the same transaction; first of all the partition fence checks that the lake
     * does not hold any of them yet. Any failure rolls back and propagates: the pump's retry ladder then writes the
     * flush again as the next attempt (a fence refusal stops it).
     */
    private long inOneCommit(RowsInsert insertRows, FlushBatch batch) throws SQLException {
        Optional<PartitionFence> fenced = recordsOffsets(batch) ? fence : Optional.empty();
        if (fenced.isPresent()) {
            fenced.get().enter(batch.ranges());
        }
        try {
            Jdbc.execute(connection, "BEGIN TRANSACTION");
            try {
                if (fenced.isPresent()) {
                    fenced.get().check(batch.ranges());
                }
                if (replays(batch)) {
                    rejects.get().deleteReplayed(batch.replayed());
                }
                long rows = insertRows == null ? 0 : insertRows.run();
                if (hasRejectsToKeep(batch)) {
                    insertRejects(batch.rejects());
                }
                if (recordsOffsets(batch)) {
                    offsets.get().insert(batch.ranges());
                }
                Jdbc.execute(connection, "COMMIT");
                return rows;
            } catch (SQLException | RuntimeException e) {
                rollback(e);
                throw e;
            }
        } finally {
            fenced.ifPresent(PartitionFence::exit);
        }
    }

    private void insertRejects(List<RejectedRecord> records) throws SQLException {
        LakeRejects lakeRejects = rejects.orElseThrow();
        for (List<RejectedRecord> slice : LakeRejects.slices(records)) {
            try (VectorSchemaRoot root = RejectsBatch.of(slice, allocator)) {
                withStream(new FlushBatch(root.getSchema(), List.of(root), slice.size()),
                        stream -> Jdbc.update(connection, lakeRejects.insertFrom(stream)));
            }
        }
    }

    private void rollback(Exception cause) {
        try {
            Jdbc.execute(connection, "ROLLBACK");
        } catch (SQLException e) {
            // A failed COMMIT may already have ended the transaction; the original failure is the one to report.
            cause.addSuppressed(e);
        }
    }

    /**
     * Per partition, the highest next offset that a flush of this table and group.id recorded in the lake; empty
     * with MILLPOND_LAKE_OFFSETS=false. Partitions whose offset rows were all deleted are absent.
     */
    @Override
    public Optional<Map<Integer, Long>> recordedOffsets(String topic) throws SQLException {
        return offsets.isPresent() ? Optional.of(offsets.get().recorded(topic)) : Optional.empty();
    }

    /** As above, for the live topic's id: rows recorded under another id are a deleted topic's (see LakeOffsets). */
    @Override
    public Optional<RecordedOffsets> recordedOffsets(String topic, String topicId) throws SQLException {
        return offsets.isPresent() ? Optional.of(offsets.get().recorded(topic, topicId)) : Optional.empty();
    }

    /** Unsafe and reserved names are dropped per column (see {@link ColumnPlan}), never added. */
    @Override
    public boolean becomesColumn(String name) {
        return Identifiers.isSafe(name)
                && !ColumnPlan.RESERVED.contains(name.toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * The columns the table is partitioned by as they are (DUCKLAKE_PARTITION_BY): DuckLake cannot record a partition
     * value holding U+0000 ({@link PartitionKeys}), so the pump keeps such records as rejects.
     */
    @Override
    public Set<String> columnsRefusingNul() {
        return partitionValueColumns;
    }

    /** Whether flushes keep their rejected records in {@code _millpond_rejects} (MILLPOND_REJECTS). */
    @Override
    public boolean keepsRejects() {
        return rejects.isPresent();
    }

    /** The live table's column names as last read (empty before the table exists); empty if the catalog is unreachable. */
    @Override
    public List<String> liveColumns() {
        try {
            return liveTable.schema().byFoldedName().values().stream().map(LiveSchema.LiveColumn::name).toList();
        } catch (SQLException e) {
            LOG.debugf("Could not read the live schema: %s", e.getMessage());
            return List.of();
        }
    }

    /** The batch columns that may be sent: unsafe and reserved keys dropped, then VARIANT companion collisions. */
    private List<Field> plannedColumns(FlushBatch batch) throws SQLException {
        ColumnPlan plan = ColumnPlan.of(batch.schema());
        for (ColumnPlan.Dropped d : plan.dropped()) {
            LOG.warnf("Dropping payload field %s from this flush (%s)", d.name(), d.reason().label());
            metrics.recordsSkipped(d.reason(), 1);
        }
        VariantCompanions.Stripped stripped = variants.strip(plan.sent(), liveTable.schema());
        for (String name : stripped.dropped()) {
            LOG.warnf("Dropping payload field %s: it would write into a VARIANT companion column", name);
            metrics.variantCompanionColumnDropped();
        }
        if (stripped.kept().isEmpty()) {
            if (!stripped.dropped().isEmpty()) {
                metrics.recordsSkipped(SkipReason.VARIANT_COMPANION_COLLISION, batch.rows());
            }
            LOG.warnf("No writable columns left in a flush of %d rows; nothing written", batch.rows());
        }
        return stripped.kept();
    }

    private static List<AlignedColumn> align(List<Field> columns, LiveSchema live) {
        List<AlignedColumn> aligned = new ArrayList<>();
        for (Field field : columns) {
            // A column the catalog refused to add is left out (already counted as a schema error).
            live.find(field.getName()).ifPresent(c -> aligned.add(AlignedColumn.of(field, c)));
        }
        return aligned;
    }

    /**
     * Values the live type cannot hold become NULL, counted once per column per batch. One extra scan of the
     * batch, only when a cast can null something; it reads the same Arrow buffers again rather than staging a copy.
     */
    private void countNulledValues(FlushBatch batch, List<AlignedColumn> aligned) throws SQLException {
        List<AlignedColumn> checked = aligned.stream().filter(AlignedColumn::mayNull).toList();
        if (checked.isEmpty()) {
            return;
        }
        String counts = checked.stream().map(AlignedColumn::nulledCount).collect(Collectors.joining(", "));
        long[] nulled = withStream(batch, stream -> Jdbc.queryLongs(connection,
                "SELECT " + counts + " FROM " + stream, checked.size()));
        for (int i = 0; i < checked.size(); i++) {
            if (nulled[i] > 0) {
                AlignedColumn c = checked.get(i);
                metrics.error(ErrorType.COLUMN_COERCION);
                LOG.warnf("Column %s: %d value(s) do not fit the live column %s and are written as NULL",
                        c.batchName(), nulled[i], c.liveName());
            }
        }
    }

    private interface StreamQuery<T> {
        T run(String stream) throws SQLException;
    }

    /**
     * Runs {@code query} against the batch registered as an Arrow stream. A registered name stays bound to its
     * one-shot C stream, so every scan registers a fresh name over a fresh zero-copy reader and drops it afterwards.
     */
    private <T> T withStream(FlushBatch batch, StreamQuery<T> query) throws SQLException {
        return withStreams(batch, 1, names -> query.run(names.get(0)));
    }

    /** As {@link #withStream}, with {@code count} names over the same batch, each its own one-shot stream. */
    private <T> T withStreams(FlushBatch batch, int count, StreamsQuery<T> query) throws SQLException {
        List<String> names = new ArrayList<>();
        List<ArrowArrayStream> streams = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                String name = STREAM_PREFIX + (++streamSequence);
                ArrowArrayStream arrow = ArrowArrayStream.allocateNew(allocator);
                streams.add(arrow);
                Data.exportArrayStream(allocator, new FlushBatchReader(batch, allocator), arrow);
                duck.registerArrowStream(name, arrow);
                names.add(name);
            }
            return query.run(names);
        } finally {
            names.forEach(this::dropStream);
            streams.forEach(ArrowArrayStream::close);
        }
    }

    private interface StreamsQuery<T> {
        T run(List<String> streams) throws SQLException;
    }

    private void dropStream(String stream) {
        try {
            Jdbc.execute(connection, "DROP VIEW IF EXISTS " + stream);
        } catch (SQLException e) {
            LOG.debugf("Could not drop %s: %s", stream, e.getMessage());
        }
    }

    /** A DuckDB setting of this sink's connection, e.g. {@code memory_limit}, for tests and diagnostics. */
    Optional<String> setting(String name) throws SQLException {
        return Optional.ofNullable(Jdbc.queryString(connection, "SELECT current_setting(" + DuckLakeSql.literal(name) + ")"));
    }

    /** A retry re-reads the catalog: another pod may have changed the table, or an operator dropped a table. */
    private void forgetCachedState() {
        liveTable.reset();
        offsetsTableEnsured = false;
    }

    @Override
    public WriteFailure classify(Throwable failure) {
        return DuckLakeFailures.classify(failure);
    }

    @Override
    public void close() {
        fence.ifPresent(PartitionFence::close);
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.warnf("Closing DuckDB failed: %s", e.getMessage());
        }
    }
}
