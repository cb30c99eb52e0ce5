package dev.millpond.sinks.hoglake;

import dev.millpond.sinks.RejectedRecord;
import dev.millpond.sinks.hoglake.schema.RejectsTable;
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
 * Rejects as one Arrow batch whose vectors are named for the rejects table's columns, for the parquet writer. The
 * columns every row of a flush shares ({@code table_name}, {@code rejected_at}) are the writer's constants, not
 * vectors. The caller closes it.
 */
final class RejectRows {

    private RejectRows() {
    }

    static VectorSchemaRoot of(List<RejectedRecord> rejects, BufferAllocator allocator) {
        VarCharVector topic = new VarCharVector(RejectsTable.TOPIC, allocator);
        IntVector partition = new IntVector(RejectsTable.PARTITION, allocator);
        BigIntVector offset = new BigIntVector(RejectsTable.OFFSET, allocator);
        TimeStampMicroTZVector timestamp = new TimeStampMicroTZVector(RejectsTable.TIMESTAMP, allocator, "UTC");
        VarCharVector reason = new VarCharVector(RejectsTable.REASON, allocator);
        VarCharVector error = new VarCharVector(RejectsTable.ERROR, allocator);
        VarBinaryVector value = new VarBinaryVector(RejectsTable.VALUE, allocator);
        BigIntVector length = new BigIntVector(RejectsTable.VALUE_LENGTH, allocator);
        BitVector truncated = new BitVector(RejectsTable.VALUE_TRUNCATED, allocator);
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
                if (r.timestampMs() >= 0) {
                    timestamp.setSafe(i, Math.multiplyExact(r.timestampMs(), 1000L));
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
