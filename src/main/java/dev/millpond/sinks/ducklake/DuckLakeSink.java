package dev.millpond.sinks.ducklake;

import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.Sink;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.duckdb.DuckDBConnection;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * Writes flushes into a DuckLake table through DuckDB: the Arrow batches are handed to DuckDB through the Arrow C
 * stream interface (no row-by-row copy) and inserted in one statement, so one flush is one DuckLake snapshot with one
 * {@code _inserted_at}.
 */
public final class DuckLakeSink implements Sink {

    private static final Logger LOG = Logger.getLogger(DuckLakeSink.class);
    private static final String STREAM_PREFIX = "_arrow_batch_";
    private static final String STAGE = "_millpond_stage";
    private static final List<String> CONTENTION_MARKERS = List.of(
            "maximum retry count", "duplicate key value", "could not serialize access", "Transaction conflict");

    private final DuckLakeSinkSettings settings;
    private final MillpondMetrics metrics;
    private final BufferAllocator allocator;
    private final Connection connection;
    private final DuckDBConnection duck;
    private final String table;

    private boolean tableEnsured;
    private LiveSchema liveSchema;
    private long streamSequence;

    public DuckLakeSink(DuckLakeSinkSettings settings, MillpondMetrics metrics, BufferAllocator allocator) throws SQLException {
        this.settings = settings;
        this.metrics = metrics;
        this.allocator = allocator;
        this.table = settings.qualifiedTable();
        this.connection = open(settings);
        this.duck = connection.unwrap(DuckDBConnection.class);
        LOG.infof("DuckLake attached: catalog=%s data_path=%s table=%s", settings.catalog(), settings.dataPath(), table);
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
            execute(c, "LOAD httpfs");
            execute(c, "LOAD ducklake");
            execute(c, "LOAD postgres");
            for (DuckLakeSinkSettings.S3Setting s3 : settings.s3Settings()) {
                execute(c, "SET " + s3.name() + " = " + DuckLakeSql.literal(s3.value()));
            }
            execute(c, "SET preserve_insertion_order = false");
            execute(c, "SET ducklake_max_retry_count = " + settings.maxRetryCount());
            if (settings.memoryLimit().isPresent()) {
                execute(c, "SET memory_limit = " + DuckLakeSql.literal(settings.memoryLimit().get()));
            }
            execute(c, DuckLakeSql.attach(settings.catalog(), settings.dataPath()));
            return c;
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    @Override
    public long write(FlushBatch batch) throws SQLException {
        ColumnPlan plan = ColumnPlan.of(batch.schema());
        for (ColumnPlan.Dropped d : plan.dropped()) {
            LOG.warnf("Dropping payload field %s from this flush (%s)", d.name(), d.reason().label());
            metrics.recordsSkipped(d.reason(), 1);
        }
        if (plan.sent().isEmpty()) {
            LOG.warnf("No writable columns left in a flush of %d rows; nothing written", batch.rows());
            return 0;
        }
        ensureTable(plan.sent());
        LiveSchema live = evolve(plan.sent());
        List<String> projection = new ArrayList<>();
        Map<String, String> castColumns = new LinkedHashMap<>();
        for (Field field : plan.sent()) {
            String wanted = DuckDbTypes.of(field);
            Optional<LiveSchema.LiveColumn> column = live.find(field.getName());
            String name = DuckLakeSql.ident(field.getName());
            if (column.isEmpty() || column.get().type().equals(wanted)) {
                projection.add(name);
            } else {
                // Decision D4: an INSERT must never fail on data, so values the live type cannot hold become NULL.
                projection.add("TRY_CAST(" + name + " AS " + column.get().type() + ") AS " + name);
                castColumns.put(field.getName(), column.get().type());
            }
        }
        String select = String.join(", ", projection) + ", NOW() AS _inserted_at";
        // A registered stream name stays bound to its (one-shot) C stream, so every attempt registers a fresh name
        // and drops it afterwards.
        String stream = STREAM_PREFIX + (++streamSequence);
        try (ArrowArrayStream arrow = ArrowArrayStream.allocateNew(allocator)) {
            Data.exportArrayStream(allocator, batch.reader(allocator), arrow);
            duck.registerArrowStream(stream, arrow);
            try {
                if (castColumns.isEmpty()) {
                    return update("INSERT INTO " + table + " BY NAME (SELECT " + select + " FROM " + stream + ")");
                }
                return insertWithCoercion(stream, select, castColumns);
            } finally {
                dropStream(stream);
            }
        }
    }

    private void dropStream(String stream) {
        try {
            execute(connection, "DROP VIEW IF EXISTS " + stream);
        } catch (SQLException e) {
            LOG.debugf("Could not drop %s: %s", stream, e.getMessage());
        }
    }

    /** The cast path scans the batch more than once (to count nulled values), so it stages the stream first. */
    private long insertWithCoercion(String stream, String select, Map<String, String> castColumns) throws SQLException {
        execute(connection, "CREATE OR REPLACE TEMP TABLE " + STAGE + " AS SELECT * FROM " + stream);
        try {
            for (Map.Entry<String, String> e : castColumns.entrySet()) {
                String col = DuckLakeSql.ident(e.getKey());
                long nulled = queryLong("SELECT count(*) FROM " + STAGE + " WHERE " + col + " IS NOT NULL AND TRY_CAST("
                        + col + " AS " + e.getValue() + ") IS NULL");
                if (nulled > 0) {
                    metrics.error(ErrorType.COLUMN_COERCION);
                    LOG.warnf("Column %s: %d value(s) cannot be cast to the live type %s and are written as NULL",
                            e.getKey(), nulled, e.getValue());
                }
            }
            return update("INSERT INTO " + table + " BY NAME (SELECT " + select + " FROM " + STAGE + ")");
        } finally {
            execute(connection, "DROP TABLE IF EXISTS " + STAGE);
        }
    }

    private void ensureTable(List<Field> columns) throws SQLException {
        if (tableEnsured) {
            return;
        }
        if (!tableExists()) {
            StringBuilder ddl = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(table).append(" (");
            for (Field f : columns) {
                ddl.append(DuckLakeSql.ident(f.getName())).append(' ').append(DuckDbTypes.of(f)).append(", ");
            }
            ddl.append("_inserted_at TIMESTAMPTZ)");
            try {
                execute(connection, ddl.toString());
                LOG.infof("Created table %s", table);
            } catch (SQLException e) {
                if (!tableExists()) {
                    throw new SQLException("Failed to create table " + settings.schema() + "." + settings.table() + ": "
                            + e.getMessage(), e);
                }
                // Another pod created it first.
            }
        }
        if (settings.partitionBy().isPresent()) {
            // Decision D9: applied to existing tables too; SET PARTITIONED BY is idempotent.
            String expr = settings.partitionBy().get();
            try {
                execute(connection, "ALTER TABLE " + table + " SET PARTITIONED BY (" + expr + ")");
            } catch (SQLException e) {
                if (!tableExists()) {
                    throw e;
                }
                LOG.warnf("Could not set partitioning (%s) on %s: %s", expr, table, e.getMessage());
            }
        }
        tableEnsured = true;
        liveSchema = null;
    }

    private LiveSchema evolve(List<Field> columns) throws SQLException {
        LiveSchema live = liveSchema();
        for (Field field : columns) {
            String wanted = DuckDbTypes.of(field);
            String name = DuckLakeSql.ident(field.getName());
            Optional<LiveSchema.LiveColumn> column = live.find(field.getName());
            if (column.isEmpty()) {
                execute(connection, "ALTER TABLE " + table + " ADD COLUMN IF NOT EXISTS " + name + " " + wanted);
                live = reloadLiveSchema();
                Optional<LiveSchema.LiveColumn> added = live.find(field.getName());
                if (added.isPresent() && added.get().type().equals(wanted)) {
                    metrics.schemaColumnAdded();
                    LOG.infof("Added column %s %s to %s", field.getName(), wanted, table);
                } else {
                    metrics.error(ErrorType.SCHEMA);
                    LOG.warnf("Column %s exists as %s (wanted %s); keeping the live type", field.getName(),
                            added.map(LiveSchema.LiveColumn::type).orElse("?"), wanted);
                }
            } else if (!column.get().type().equals(wanted)) {
                try {
                    execute(connection, "ALTER TABLE " + table + " ALTER COLUMN " + name + " SET DATA TYPE " + wanted);
                    metrics.schemaColumnWidened();
                    LOG.infof("Widened column %s from %s to %s", field.getName(), column.get().type(), wanted);
                    live = reloadLiveSchema();
                } catch (SQLException e) {
                    metrics.error(ErrorType.SCHEMA);
                    LOG.debugf("Column %s stays %s (batch has %s): %s", field.getName(), column.get().type(), wanted,
                            e.getMessage());
                }
            }
        }
        return live;
    }

    private LiveSchema liveSchema() throws SQLException {
        return liveSchema != null ? liveSchema : reloadLiveSchema();
    }

    private LiveSchema reloadLiveSchema() throws SQLException {
        Map<String, String> columns = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT column_name, data_type FROM information_schema.columns "
                + "WHERE table_catalog = 'lake' AND table_schema = ? AND table_name = ? ORDER BY ordinal_position")) {
            ps.setString(1, settings.schema());
            ps.setString(2, settings.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        liveSchema = LiveSchema.of(columns);
        return liveSchema;
    }

    private boolean tableExists() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM information_schema.tables "
                + "WHERE table_catalog = 'lake' AND table_schema = ? AND table_name = ?")) {
            ps.setString(1, settings.schema());
            ps.setString(2, settings.table());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Column names of the live table, for tests and diagnostics. */
    public Set<String> liveColumnNames() throws SQLException {
        return new HashSet<>(reloadLiveSchema().byFoldedName().keySet());
    }

    @Override
    public void resetCaches() {
        tableEnsured = false;
        liveSchema = null;
    }

    @Override
    public ErrorType classify(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            for (String marker : CONTENTION_MARKERS) {
                if (message.contains(marker)) {
                    return ErrorType.DUCKLAKE_COMMIT_CONTENTION;
                }
            }
        }
        return ErrorType.WRITE_RETRY;
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.warnf("Closing DuckDB failed: %s", e.getMessage());
        }
    }

    private long update(String sql) throws SQLException {
        // DuckDB JDBC closes a Statement after it throws: every statement gets a fresh one.
        try (Statement s = connection.createStatement()) {
            return s.executeUpdate(sql);
        }
    }

    private long queryLong(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
