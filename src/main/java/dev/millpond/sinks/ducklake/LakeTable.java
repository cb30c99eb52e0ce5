package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.ducklake.Jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The DDL and catalog reads the sink runs against its one table, in the original's SQL shapes. */
final class LakeTable {

    private final Connection connection;
    private final String schema;
    private final String table;
    private final String qualified;
    private final int maxRetryCount;

    LakeTable(Connection connection, String schema, String table, int maxRetryCount) {
        this.connection = connection;
        this.maxRetryCount = maxRetryCount;
        this.schema = schema;
        this.table = table;
        this.qualified = "lake." + DuckLakeSql.ident(schema) + "." + DuckLakeSql.ident(table);
    }

    String schema() {
        return schema;
    }

    String name() {
        return table;
    }

    String qualified() {
        return qualified;
    }

    String displayName() {
        return schema + "." + table;
    }

    boolean exists() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM information_schema.tables "
                + "WHERE table_catalog = 'lake' AND table_schema = ? AND table_name = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** An empty schema when the table does not exist (yet). */
    LiveSchema readSchema() throws SQLException {
        Map<String, String> columns = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT column_name, data_type FROM information_schema.columns "
                + "WHERE table_catalog = 'lake' AND table_schema = ? AND table_name = ? ORDER BY ordinal_position")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return LiveSchema.of(columns);
    }

    /** {@code columnDefinitions} is the DDL column list, e.g. {@code "a" BIGINT, "b" VARCHAR}. */
    void create(String columnDefinitions) throws SQLException {
        String columns = columnDefinitions.isEmpty() ? "" : columnDefinitions + ", ";
        ddl("CREATE TABLE IF NOT EXISTS " + qualified + " (" + columns + "_inserted_at TIMESTAMPTZ)");
    }

    void setPartitionedBy(String expression) throws SQLException {
        ddl("ALTER TABLE " + qualified + " SET PARTITIONED BY (" + expression + ")");
    }

    void addColumnIfNotExists(String name, String type) throws SQLException {
        ddl("ALTER TABLE " + qualified + " ADD COLUMN IF NOT EXISTS " + DuckLakeSql.ident(name) + " " + type);
    }

    /** A column to add: its name and DuckDB type. */
    record NewColumn(String name, String type) {
    }

    /**
     * Columns added per DuckLake transaction. One commit per column costs a catalog snapshot each, ~80–100 ms and
     * growing with the width (a flush adding 1,000 columns took 107 s; 5,000 took minutes and GBs). One transaction
     * for all of them is no cure either: DuckLake 1.4.4 keeps a copy of the whole table entry per ALTER until the
     * commit, so memory grows with the square of the count (a flush adding 5,000 columns: 63 s, 8.2 GB peak RSS).
     * Chunks of 100 keep both near linear: 1,000 columns in 3.8 s at 0.39 GB peak, 5,000 in 29 s at 0.98 GB
     * ({@code WideFlushBenchmarkMain}; docs/rejects.md has the table).
     */
    static final int COLUMNS_PER_COMMIT = 100;

    /**
     * Adds the columns in as few catalog commits as keep memory bounded ({@link #COLUMNS_PER_COMMIT} per
     * transaction). A failure rolls back the current chunk and propagates; chunks already committed stay, which is
     * harmless because every ADD is {@code IF NOT EXISTS} and the caller re-reads the live schema.
     */
    void addColumnsIfNotExist(List<NewColumn> columns) throws SQLException {
        for (int from = 0; from < columns.size(); from += COLUMNS_PER_COMMIT) {
            List<NewColumn> chunk = columns.subList(from, Math.min(columns.size(), from + COLUMNS_PER_COMMIT));
            withoutCommitRetry(() -> addInOneTransaction(chunk));
        }
    }

    private void addInOneTransaction(List<NewColumn> columns) throws SQLException {
        Jdbc.execute(connection, "BEGIN TRANSACTION");
        try {
            for (NewColumn c : columns) {
                Jdbc.execute(connection, "ALTER TABLE " + qualified + " ADD COLUMN IF NOT EXISTS "
                        + DuckLakeSql.ident(c.name()) + " " + c.type());
            }
            Jdbc.execute(connection, "COMMIT");
        } catch (SQLException | RuntimeException e) {
            try {
                Jdbc.execute(connection, "ROLLBACK");
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        }
    }

    private interface SqlAction {
        void run() throws SQLException;
    }

    /**
     * Runs a schema change with DuckLake's internal commit retry off. That retry re-applies the change on top of a
     * snapshot another pod committed meanwhile, and for ADD COLUMN it keeps the column id it picked before, so two
     * pods adding different columns at once end up with a duplicate field id that fails every later INSERT
     * ("Duplicate field_id N found in FIELD_IDS", seen with DuckDB 1.4.4). Failing fast instead hands the conflict to
     * the pump's retry ladder, which re-reads the catalog.
     */
    private void ddl(String sql) throws SQLException {
        withoutCommitRetry(() -> Jdbc.execute(connection, sql));
    }

    private void withoutCommitRetry(SqlAction action) throws SQLException {
        Jdbc.execute(connection, "SET ducklake_max_retry_count = 0");
        try {
            action.run();
        } finally {
            Jdbc.execute(connection, "SET ducklake_max_retry_count = " + maxRetryCount);
        }
    }

    void setDataType(String name, String type) throws SQLException {
        ddl("ALTER TABLE " + qualified + " ALTER COLUMN " + DuckLakeSql.ident(name) + " SET DATA TYPE " + type);
    }
}
