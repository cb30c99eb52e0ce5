package dev.millpond.sinks;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Rejects as one Arrow batch, the same for every destination: its vectors are named for the rejects table's columns
 * that vary by record. The columns a whole flush shares ({@code table_name}, {@code rejected_at}) are the sink's to
 * add. DuckLake inserts the batch as a stream (a literal {@code VALUES} list of base64 strings cost ~0.5 ms per reject
 * to parse), hoglake encodes it as parquet. The caller closes it.
 */
public final class RejectsBatch {

    public static final String TOPIC = "topic";
    public static final String PARTITION = "kafka_partition";
    public static final String OFFSET = "kafka_offset";
    public static final String TIMESTAMP = "kafka_timestamp";
    public static final String REASON = "reason";
    public static final String ERROR = "error";
    public static final String VALUE = "value";
    public static final String VALUE_LENGTH = "value_length";
    public static final String VALUE_TRUNCATED = "value_truncated";

    /** The largest epoch millisecond that still fits a microsecond timestamp (both tables keep microseconds). */
    private static final long MAX_MILLIS = Long.MAX_VALUE / 1000;

    private RejectsBatch() {
    }

    public static VectorSchemaRoot of(List<RejectedRecord> rejects, BufferAllocator allocator) {
        VarCharVector topic = new VarCharVector(TOPIC, allocator);
        IntVector partition = new IntVector(PARTITION, allocator);
        BigIntVector offset = new BigIntVector(OFFSET, allocator);
        TimeStampMicroTZVector timestamp = new TimeStampMicroTZVector(TIMESTAMP, allocator, "UTC");
        VarCharVector reason = new VarCharVector(REASON, allocator);
        VarCharVector error = new VarCharVector(ERROR, allocator);
        VarBinaryVector value = new VarBinaryVector(VALUE, allocator);
        BigIntVector length = new BigIntVector(VALUE_LENGTH, allocator);
        BitVector truncated = new BitVector(VALUE_TRUNCATED, allocator);
        List<FieldVector> vectors = List.of(topic, partition, offset, timestamp, reason, error, value, length,
                truncated);
        VectorSchemaRoot root = new VectorSchemaRoot(vectors);
        try {
            root.allocateNew();
            for (int i = 0; i < rejects.size(); i++) {
                RejectedRecord r = rejects.get(i);
                topic.setSafe(i, r.topic().getBytes(StandardCharsets.UTF_8));
                partition.setSafe(i, r.partition());
                offset.setSafe(i, r.offset());
                // A producer may set any timestamp; one that no microsecond timestamp can hold is kept as none
                // rather than failing the flush that carries the reject.
                if (r.timestampMs() >= 0 && r.timestampMs() <= MAX_MILLIS) {
                    timestamp.setSafe(i, r.timestampMs() * 1000L);
                } else {
                    timestamp.setNull(i);
                }
                reason.setSafe(i, r.reason().getBytes(StandardCharsets.UTF_8));
                error.setSafe(i, r.error().getBytes(StandardCharsets.UTF_8));
                value.setSafe(i, r.value());
                length.setSafe(i, r.valueLength());
                truncated.setSafe(i, r.truncated() ? 1 : 0);
            }
            root.setRowCount(rejects.size());
            return root;
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }
}
