package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.RejectedRecord;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Base64;
import java.util.List;

/**
 * The insert-only {@code _millpond_rejects} table beside the data table: one row per Kafka record the pipeline could
 * not land (unparseable, not an object, too wide), written in the same DuckLake transaction as the flush's rows and
 * offsets, so a reject is in the lake exactly once, like a row.
 */
final class LakeRejects {

    static final String TABLE = "_millpond_rejects";
    private static final Logger LOG = Logger.getLogger(LakeRejects.class);
    /**
     * Most SQL text per INSERT. Values travel as base64 literals; bounding the statement bounds the heap a flush of
     * many large rejects needs (the string, and DuckDB's copy of it) instead of building one statement for all.
     */
    private static final int MAX_STATEMENT_CHARS = 4 << 20;

    private final Connection connection;
    private final String schema;
    private final String qualified;
    private final String dataTable;

    LakeRejects(Connection connection, String schema, String dataTable) {
        this.connection = connection;
        this.schema = schema;
        this.qualified = "lake." + DuckLakeSql.ident(schema) + "." + DuckLakeSql.ident(TABLE);
        this.dataTable = dataTable;
    }

    String qualified() {
        return qualified;
    }

    /** Creates the table if missing; pods racing on the create tolerate each other. */
    void ensureTable() throws SQLException {
        String ddl = "CREATE TABLE IF NOT EXISTS " + qualified + " (table_name VARCHAR, topic VARCHAR, "
                + "kafka_partition INTEGER, kafka_offset BIGINT, kafka_timestamp TIMESTAMPTZ, reason VARCHAR, "
                + "error VARCHAR, value BLOB, value_length BIGINT, rejected_at TIMESTAMPTZ)";
        for (int attempt = 1; ; attempt++) {
            try {
                Jdbc.execute(connection, ddl);
                return;
            } catch (SQLException e) {
                if (exists()) {
                    LOG.debugf("%s was created concurrently by another writer", qualified);
                    return;
                }
                if (attempt >= 5 || !CommitContention.isContention(e) && !String.valueOf(e.getMessage())
                        .contains("already exists")) {
                    throw new SQLException("Failed to create " + qualified + ": " + e.getMessage(), e);
                }
                try {
                    Thread.sleep(200L * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted while creating the rejects table", ie);
                }
            }
        }
    }

    private boolean exists() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM information_schema.tables "
                + "WHERE table_catalog = 'lake' AND table_schema = ? AND table_name = ?")) {
            ps.setString(1, schema);
            ps.setString(2, TABLE);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Inserts every reject; run inside the transaction that inserts the flush's rows and offsets. */
    void insert(List<RejectedRecord> rejects) throws SQLException {
        String head = "INSERT INTO " + qualified + " VALUES ";
        StringBuilder sql = new StringBuilder(head);
        for (RejectedRecord r : rejects) {
            String row = row(r);
            if (sql.length() > head.length() && sql.length() + row.length() > MAX_STATEMENT_CHARS) {
                Jdbc.execute(connection, sql.toString());
                sql.setLength(head.length());
            }
            sql.append(sql.length() > head.length() ? ", " : "").append(row);
        }
        if (sql.length() > head.length()) {
            Jdbc.execute(connection, sql.toString());
        }
    }

    private String row(RejectedRecord r) {
        String timestamp = r.timestampMs() < 0 ? "NULL" : "to_timestamp(" + r.timestampMs() + " / 1000.0)";
        return "(" + DuckLakeSql.literal(dataTable) + ", " + DuckLakeSql.literal(r.topic()) + ", " + r.partition()
                + ", " + r.offset() + ", " + timestamp + ", " + DuckLakeSql.literal(r.reason()) + ", "
                + DuckLakeSql.literal(r.error()) + ", from_base64('" + Base64.getEncoder().encodeToString(r.value())
                + "'), " + r.valueLength() + ", NOW())";
    }
}
