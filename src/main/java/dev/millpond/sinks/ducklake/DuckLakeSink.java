package dev.millpond.sinks.ducklake;

import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.SkipReason;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.Sink;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.duckdb.DuckDBConnection;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * Writes flushes into a DuckLake table through DuckDB: the Arrow batches are handed to DuckDB through the Arrow C
 * stream interface (no row-by-row copy) and inserted in one statement, so one flush is one DuckLake snapshot with one
 * {@code _inserted_at}. With lake offsets on (the default) that snapshot also holds the flush's Kafka offsets in
 * {@code _millpond_offsets} ({@link LakeOffsets}), which is what makes a restart after a crash exactly-once.
 *
 * <p>Before the INSERT the batch is planned (D3 drops, VARIANT companion collisions), the table is created or
 * evolved ({@link LiveTable}) and every column is aligned to the live type ({@link AlignedColumn}, D4), so no
 * payload can make the INSERT fail on data. Not thread-safe: one sink per pump thread.
 */
public final class DuckLakeSink implements Sink {

    private static final Logger LOG = Logger.getLogger(DuckLakeSink.class);
    private static final String STREAM_PREFIX = "_arrow_batch_";

    private final MillpondMetrics metrics;
    private final BufferAllocator allocator;
    private final Connection connection;
    private final DuckDBConnection duck;
    private final LakeTable table;
    private final LiveTable liveTable;
    private final VariantCompanions variants;
    /** Empty when MILLPOND_LAKE_OFFSETS=false: then a flush is a plain INSERT and Kafka alone holds the position. */
    private final Optional<LakeOffsets> offsets;

    private long streamSequence;
    private boolean offsetsTableEnsured;
    /** Set by {@link #resetCaches()}: the next write is the pump retrying a failed one. */
    private boolean retrying;

    public DuckLakeSink(DuckLakeSinkSettings settings, MillpondMetrics metrics, BufferAllocator allocator) throws SQLException {
        this.metrics = metrics;
        this.allocator = allocator;
        this.connection = open(settings);
        this.duck = connection.unwrap(DuckDBConnection.class);
        this.table = new LakeTable(connection, settings.schema(), settings.table(), settings.maxRetryCount());
        this.liveTable = new LiveTable(table, metrics, settings.partitionBy());
        this.variants = new VariantCompanions(settings.variantSources());
        this.offsets = settings.lakeOffsetsGroupId()
                .map(group -> new LakeOffsets(connection, settings.schema(), settings.table(), group));
        ensureOffsetsTable();
        LOG.infof("DuckLake attached: catalog=%s data_path=%s table=%s", settings.catalog(), settings.dataPath(),
                table.qualified());
    }

    private static Connection open(DuckLakeSinkSettings settings) throws SQLException {
        Properties props = new Properties();
        // Extensions come from the image, never from the network (production pods have none to the extension CDN).
        props.setProperty("extension_directory", settings.extensionDirectory().toString());
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        String target = settings.connection().equals(":memory:") ? "" : settings.connection();
        Connection c = DriverManager.getConnection("jdbc:duckdb:" + target, props);
        try {
            // Loaded before the s3_* settings: with auto-loading off, httpfs must define them first.
            Jdbc.execute(c, "LOAD httpfs");
            Jdbc.execute(c, "LOAD ducklake");
            Jdbc.execute(c, "LOAD postgres");
            for (DuckLakeSinkSettings.S3Setting s3 : settings.s3Settings()) {
                Jdbc.execute(c, "SET " + s3.name() + " = " + DuckLakeSql.literal(s3.value()));
            }
            Jdbc.execute(c, "SET preserve_insertion_order = false");
            Jdbc.execute(c, "SET ducklake_max_retry_count = " + settings.maxRetryCount());
            if (settings.memoryLimit().isPresent()) {
                Jdbc.execute(c, "SET memory_limit = " + DuckLakeSql.literal(settings.memoryLimit().get()));
            }
            if (settings.resources().isPresent()) {
                Jdbc.execute(c, "SET threads = " + settings.resources().get().threads());
            }
            attach(c, settings);
            settings.resources().ifPresent(r -> rowGroupSize(c, r));
            return c;
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    /**
     * DuckDB holds a whole parquet row group per writing thread in memory, so the row group size bounds the write's
     * memory. It is a lake option, stored in the catalog: set only when it differs, so restarts do not write to the
     * catalog. A failure (another pod setting it at the same moment) costs only memory, so it is logged, not raised.
     */
    private static void rowGroupSize(Connection c, DuckDbResources r) {
        for (String[] option : new String[][] {{"parquet_row_group_size", Long.toString(r.rowGroupRows())},
                {"parquet_row_group_size_bytes", (r.rowGroupMaxBytes() >> 20) + "MiB"}}) {
            try {
                String current = Jdbc.queryString(c, "SELECT value FROM lake.options() WHERE option_name = "
                        + DuckLakeSql.literal(option[0]) + " AND scope = 'GLOBAL'");
                if (!option[1].equals(current)) {
                    Jdbc.execute(c, "CALL lake.set_option(" + DuckLakeSql.literal(option[0]) + ", "
                            + DuckLakeSql.literal(option[1]) + ")");
                    LOG.infof("DuckLake option %s set to %s (was %s)", option[0], option[1], current);
                }
            } catch (SQLException e) {
                LOG.warnf("Could not set the DuckLake option %s=%s: %s", option[0], option[1],
                        String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            }
        }
    }

    /**
     * The first ATTACH of a fresh catalog creates DuckLake's metadata tables; pods starting together race on that
     * and the losers see "already exists" / duplicate-key errors. The winner's tables are then there, so retry.
     */
    private static void attach(Connection c, DuckLakeSinkSettings settings) throws SQLException {
        String sql = DuckLakeSql.attach(settings.catalog(), settings.dataPath());
        for (int attempt = 1; ; attempt++) {
            try {
                Jdbc.execute(c, sql);
                return;
            } catch (SQLException e) {
                String message = String.valueOf(e.getMessage());
                boolean race = message.contains("already exists") || CommitContention.isContention(e);
                if (!race || attempt >= 5) {
                    throw e;
                }
                LOG.warnf("ATTACH attempt %d raced another writer initialising the catalog; retrying: %s", attempt,
                        message.lines().findFirst().orElse(""));
                try {
                    Thread.sleep(250L * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    @Override
    public long write(FlushBatch batch) throws SQLException {
        if (retrying && alreadyInTheLake(batch)) {
            retrying = false;
            LOG.warnf("The previous attempt's commit of this %d-row flush reached the lake after all; not writing it"
                    + " again", batch.rows());
            return batch.rows();
        }
        retrying = false;
        List<Field> columns = plannedColumns(batch);
        if (columns.isEmpty()) {
            return 0;
        }
        liveTable.ensure(columns);
        LiveSchema live = liveTable.evolve(columns);
        liveTable.ensureCompanions(variants.sourcesIn(columns));
        List<AlignedColumn> aligned = align(columns, live);
        if (aligned.isEmpty()) {
            LOG.warnf("No column of a %d-row flush exists in %s; nothing written", batch.rows(), table.displayName());
            return 0;
        }
        countNulledValues(batch, aligned);
        String select = aligned.stream().map(AlignedColumn::projection).collect(Collectors.joining(", "))
                + ", NOW() AS _inserted_at";
        String insert = "INSERT INTO " + table.qualified() + " BY NAME (SELECT " + select + " FROM ";
        ensureOffsetsTable();
        if (offsets.isEmpty() || batch.ranges().isEmpty()) {
            return withStream(batch, stream -> Jdbc.update(connection, insert + stream + ")"));
        }
        return withStream(batch, stream -> insertWithOffsets(insert + stream + ")", batch));
    }

    /**
     * A COMMIT can fail on the client after the catalog applied it (the connection dropped on the way back). Before a
     * retry writes the flush again, the offsets it would record tell whether the lake has it already.
     */
    private boolean alreadyInTheLake(FlushBatch batch) throws SQLException {
        if (offsets.isEmpty() || batch.ranges().isEmpty()) {
            return false;
        }
        Map<String, Map<Integer, Long>> recorded = new HashMap<>();
        for (OffsetRange range : batch.ranges()) {
            Map<Integer, Long> topic = recorded.computeIfAbsent(range.topic(), this::recordedOrEmpty);
            if (topic.getOrDefault(range.partition(), Long.MIN_VALUE) < range.next()) {
                return false;
            }
        }
        return true;
    }

    private Map<Integer, Long> recordedOrEmpty(String topic) {
        try {
            return offsets.orElseThrow().recorded(topic);
        } catch (SQLException e) {
            LOG.debugf("Could not read the recorded offsets (%s); writing the flush again", e.getMessage());
            return Map.of();
        }
    }

    /** Creates the offsets table at construction, and again after {@link #resetCaches()} in case it was dropped. */
    private void ensureOffsetsTable() throws SQLException {
        if (offsets.isPresent() && !offsetsTableEnsured) {
            offsets.get().ensureTable();
            offsetsTableEnsured = true;
        }
    }

    /**
     * The rows and the offsets they cover in one DuckLake transaction, so one snapshot holds both or neither. Any
     * failure rolls back and propagates: the pump's retry ladder then resets the caches and writes the flush again.
     */
    private long insertWithOffsets(String insertRows, FlushBatch batch) throws SQLException {
        Jdbc.execute(connection, "BEGIN TRANSACTION");
        try {
            long rows = Jdbc.update(connection, insertRows);
            offsets.orElseThrow().insert(batch.ranges());
            Jdbc.execute(connection, "COMMIT");
            return rows;
        } catch (SQLException | RuntimeException e) {
            rollback(e);
            throw e;
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
     * with MILLPOND_LAKE_OFFSETS=false, and without the partitions whose records were all deleted.
     */
    public Map<Integer, Long> recordedOffsets(String topic) throws SQLException {
        return offsets.isPresent() ? offsets.get().recorded(topic) : Map.of();
    }

    /** Whether flushes record their offsets in the lake (MILLPOND_LAKE_OFFSETS). */
    public boolean recordsOffsets() {
        return offsets.isPresent();
    }

    /** The batch columns that may be sent: D3 drops, then VARIANT companion collisions, each counted. */
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
     * D4: values the live type cannot hold become NULL, counted once per column per batch. One extra scan of the
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
        String stream = STREAM_PREFIX + (++streamSequence);
        try (ArrowArrayStream arrow = ArrowArrayStream.allocateNew(allocator)) {
            Data.exportArrayStream(allocator, batch.reader(allocator), arrow);
            duck.registerArrowStream(stream, arrow);
            try {
                return query.run(stream);
            } finally {
                dropStream(stream);
            }
        }
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

    @Override
    public void resetCaches() {
        liveTable.reset();
        offsetsTableEnsured = false;
        retrying = true;
    }

    @Override
    public ErrorType classify(Throwable failure) {
        return CommitContention.errorType(failure);
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.warnf("Closing DuckDB failed: %s", e.getMessage());
        }
    }
}
