package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.RejectedRecord;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * The insert-only {@code _millpond_rejects} table beside the data table: one row per Kafka record the pipeline could
 * not land (unparseable, not an object, too wide), written in the same DuckLake transaction as the flush's rows and
 * offsets, so a reject is in the lake exactly once, like a row.
 */
final class LakeRejects {

    static final String TABLE = "_millpond_rejects";

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
        SideTables.create(qualified, () -> Jdbc.execute(connection, ddl),
                () -> SideTables.exists(connection, schema, TABLE));
    }

    /**
     * The rejects as one Arrow batch, which the sink hands to DuckDB as a stream like the flush's rows: a literal
     * {@code VALUES} list of base64 strings cost ~0.5 ms per reject to parse (2,000 rejects added a second to a flush).
     * The caller closes it.
     */
    static VectorSchemaRoot toArrow(List<RejectedRecord> rejects, BufferAllocator allocator) {
        VarCharVector topic = new VarCharVector("topic", allocator);
        IntVector partition = new IntVector("kafka_partition", allocator);
        BigIntVector offset = new BigIntVector("kafka_offset", allocator);
        BigIntVector timestamp = new BigIntVector("kafka_timestamp_ms", allocator);
        VarCharVector reason = new VarCharVector("reason", allocator);
        VarCharVector error = new VarCharVector("error", allocator);
        VarBinaryVector value = new VarBinaryVector("value", allocator);
        BigIntVector length = new BigIntVector("value_length", allocator);
        List<FieldVector> vectors = List.of(topic, partition, offset, timestamp, reason, error, value, length);
        VectorSchemaRoot root = new VectorSchemaRoot(vectors);
        try {
            root.allocateNew();
            for (int i = 0; i < rejects.size(); i++) {
                RejectedRecord r = rejects.get(i);
                topic.setSafe(i, r.topic().getBytes(StandardCharsets.UTF_8));
                partition.setSafe(i, r.partition());
                offset.setSafe(i, r.offset());
                if (r.timestampMs() >= 0) {
                    timestamp.setSafe(i, r.timestampMs());
                } else {
                    timestamp.setNull(i);
                }
                reason.setSafe(i, r.reason().getBytes(StandardCharsets.UTF_8));
                error.setSafe(i, r.error().getBytes(StandardCharsets.UTF_8));
                value.setSafe(i, r.value());
                length.setSafe(i, r.valueLength());
            }
            root.setRowCount(rejects.size());
            return root;
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    /** The INSERT of a batch from {@link #toArrow} registered as {@code stream}; run inside the flush's transaction. */
    String insertFrom(String stream) {
        return "INSERT INTO " + qualified + " SELECT " + DuckLakeSql.literal(dataTable) + ", topic, kafka_partition, "
                + "kafka_offset, to_timestamp(kafka_timestamp_ms / 1000.0), reason, error, value, value_length, NOW() "
                + "FROM " + stream;
    }
}
