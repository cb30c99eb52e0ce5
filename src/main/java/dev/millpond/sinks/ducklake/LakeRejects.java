package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.ducklake.Jdbc;
import dev.millpond.sinks.RejectedRecord;
import dev.millpond.sinks.RejectsBatch;
import dev.millpond.sinks.StoredReject;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code _millpond_rejects} table beside the data table: one row per Kafka record the pipeline could not land
 * (unparseable, not an object, too wide), written in the same DuckLake transaction as the flush's rows and offsets, so
 * a reject is in the lake exactly once, like a row. Rows are only ever inserted, except by a replay, which removes the
 * rows it lands again in the transaction that lands them.
 */
final class LakeRejects {

    private static final Logger LOG = Logger.getLogger(LakeRejects.class);
    static final String TABLE = "_millpond_rejects";
    /** Added after the first release: lakes created before it get it by ALTER, and their older rows hold NULL. */
    static final String TRUNCATED_COLUMN = RejectsBatch.VALUE_TRUNCATED;
    /**
     * The most value bytes one Arrow batch of rejects holds; a flush's rejects are inserted in as many batches as
     * that takes (in its one transaction), so the copy outside the heap stays this small whatever the flush holds. A
     * single larger record is a batch of its own.
     */
    static final long SLICE_BYTES = 8L << 20;

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
                + "error VARCHAR, value BLOB, value_length BIGINT, rejected_at TIMESTAMPTZ, "
                + TRUNCATED_COLUMN + " BOOLEAN)";
        SideTables.create(qualified, () -> Jdbc.execute(connection, ddl),
                () -> SideTables.exists(connection, schema, TABLE));
        if (!hasTruncatedColumn()) {
            String alter = "ALTER TABLE " + qualified + " ADD COLUMN IF NOT EXISTS " + TRUNCATED_COLUMN + " BOOLEAN";
            SideTables.create(qualified + "." + TRUNCATED_COLUMN, () -> Jdbc.execute(connection, alter),
                    this::hasTruncatedColumn);
        }
        ensureNotInlined();
    }

    /**
     * DuckLake writes an insert of up to {@code data_inlining_row_limit} rows (10 by default) into the catalog instead
     * of a parquet file, and a flush's rejects are nearly always that few. A whole reject can be megabytes: inlined,
     * each is a multi-megabyte Postgres row, written through DuckDB's Postgres client with several copies of the value
     * in memory (a flush of four 5 MB rejects took 13 s and pushed a 1 GiB pod past its limit), and the catalog grows
     * by every reject until a merge moves them out. So the table is set not to inline, once: only when no table-level
     * value exists yet (restarts do not write to the catalog, an operator's own value stands). A failure (another pod
     * setting it at the same moment) costs only speed, so it is logged, not raised.
     */
    void ensureNotInlined() {
        NoInlining.ensure(connection, schema, TABLE, "rejects go to parquet files, not the catalog");
    }

    private boolean hasTruncatedColumn() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM information_schema.columns "
                + "WHERE table_catalog = 'lake' AND table_schema = ? AND table_name = ? AND column_name = ?")) {
            ps.setString(1, schema);
            ps.setString(2, TABLE);
            ps.setString(3, TRUNCATED_COLUMN);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** The rejects cut into runs of at most {@link #SLICE_BYTES} of values each, in order; a larger one alone. */
    static List<List<RejectedRecord>> slices(List<RejectedRecord> rejects) {
        return RejectedRecord.slices(rejects, SLICE_BYTES);
    }

    /**
     * Removes the rows a replay lands again, inside its transaction and before its own rejects go in (a record
     * rejected again is stored anew). Every row must still be there: one that is gone was removed by someone else, who
     * may have landed its record already, so the replay's transaction fails instead of landing it twice.
     */
    void deleteReplayed(List<StoredReject> rows) throws SQLException {
        long deleted = Jdbc.update(connection, "DELETE FROM " + qualified + " WHERE " + matching(rows));
        if (deleted != rows.size()) {
            throw new SQLException("the rejects table changed under the replay: " + deleted + " of " + rows.size()
                    + " replayed row(s) were still there; nothing of this batch is written");
        }
    }

    /** How many of {@code rows} the rejects table still holds: none once the replay that named them committed. */
    long stillKept(List<StoredReject> rows) throws SQLException {
        return Jdbc.queryLongs(connection, "SELECT count(*) FROM " + qualified + " WHERE " + matching(rows), 1)[0];
    }

    private String matching(List<StoredReject> rows) {
        return "table_name = " + DuckLakeSql.literal(dataTable) + " AND (" + rows.stream()
                .map(r -> "(topic = " + DuckLakeSql.literal(r.topic()) + " AND kafka_partition = " + r.partition()
                        + " AND kafka_offset = " + r.offset() + " AND epoch_us(rejected_at) = " + r.rejectedAtMicros()
                        + ")")
                .collect(Collectors.joining(" OR ")) + ")";
    }

    /** The INSERT of a {@link RejectsBatch} registered as {@code stream}; run inside the flush's transaction. */
    String insertFrom(String stream) {
        // Columns named: a lake whose table got value_truncated by ALTER has it in the same place, but say so.
        return "INSERT INTO " + qualified + " (table_name, topic, kafka_partition, kafka_offset, kafka_timestamp, "
                + "reason, error, value, value_length, rejected_at, " + TRUNCATED_COLUMN + ") SELECT "
                + DuckLakeSql.literal(dataTable) + ", topic, kafka_partition, kafka_offset, "
                + "kafka_timestamp, reason, error, value, value_length, NOW(), "
                + TRUNCATED_COLUMN + " FROM " + stream;
    }
}
