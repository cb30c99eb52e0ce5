package dev.millpond.sinks;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class RejectsBatchTest {

    /** Generated rejects, timestamps from none to past what microseconds hold: each row reads back as its record. */
    @Test
    void everyRejectReadsBackAsItsRecord() {
        Random random = new Random(11);
        for (int round = 0; round < 50; round++) {
            List<RejectedRecord> rejects = new ArrayList<>();
            for (int i = random.nextInt(40); i > 0; i--) {
                rejects.add(reject(random));
            }
            try (BufferAllocator allocator = new RootAllocator();
                 VectorSchemaRoot root = RejectsBatch.of(rejects, allocator)) {
                assertThat(root.getRowCount()).isEqualTo(rejects.size());
                for (int i = 0; i < rejects.size(); i++) {
                    assertRow(root, i, rejects.get(i));
                }
            }
        }
    }

    @Test
    void theTimestampIsMicrosecondsInUtcAndATimestampNoMicrosecondCanHoldIsNone() {
        List<RejectedRecord> rejects = List.of(withTimestamp(1_700_000_000_123L), withTimestamp(-1),
                withTimestamp(Long.MAX_VALUE / 1000), withTimestamp(Long.MAX_VALUE / 1000 + 1),
                withTimestamp(Long.MAX_VALUE));
        try (BufferAllocator allocator = new RootAllocator();
             VectorSchemaRoot root = RejectsBatch.of(rejects, allocator)) {
            TimeStampMicroTZVector timestamp = (TimeStampMicroTZVector) root.getVector(RejectsBatch.TIMESTAMP);
            assertThat(timestamp.getField().getType())
                    .isEqualTo(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"));
            assertThat(timestamp.get(0)).isEqualTo(1_700_000_000_123_000L);
            assertThat(timestamp.isNull(1)).as("no timestamp").isTrue();
            assertThat(timestamp.get(2)).isEqualTo(Long.MAX_VALUE / 1000 * 1000);
            assertThat(timestamp.isNull(3)).as("one millisecond past what microseconds hold").isTrue();
            assertThat(timestamp.isNull(4)).isTrue();
        }
    }

    private static void assertRow(VectorSchemaRoot root, int i, RejectedRecord r) {
        assertThat(text(root, RejectsBatch.TOPIC, i)).isEqualTo(r.topic());
        assertThat(((IntVector) root.getVector(RejectsBatch.PARTITION)).get(i)).isEqualTo(r.partition());
        assertThat(((BigIntVector) root.getVector(RejectsBatch.OFFSET)).get(i)).isEqualTo(r.offset());
        TimeStampMicroTZVector timestamp = (TimeStampMicroTZVector) root.getVector(RejectsBatch.TIMESTAMP);
        if (r.timestampMs() < 0 || r.timestampMs() > Long.MAX_VALUE / 1000) {
            assertThat(timestamp.isNull(i)).isTrue();
        } else {
            assertThat(timestamp.get(i)).isEqualTo(r.timestampMs() * 1000);
        }
        assertThat(text(root, RejectsBatch.REASON, i)).isEqualTo(r.reason());
        assertThat(text(root, RejectsBatch.ERROR, i)).isEqualTo(r.error());
        assertThat(((VarBinaryVector) root.getVector(RejectsBatch.VALUE)).get(i)).isEqualTo(r.value());
        assertThat(((BigIntVector) root.getVector(RejectsBatch.VALUE_LENGTH)).get(i)).isEqualTo(r.valueLength());
        assertThat(((BitVector) root.getVector(RejectsBatch.VALUE_TRUNCATED)).get(i) == 1).isEqualTo(r.truncated());
    }

    private static String text(VectorSchemaRoot root, String column, int i) {
        return new String(((VarCharVector) root.getVector(column)).get(i), StandardCharsets.UTF_8);
    }

    private static RejectedRecord reject(Random random) {
        long timestamp = switch (random.nextInt(4)) {
            case 0 -> -1;
            case 1 -> random.nextLong(0, 4_000_000_000_000L);
            case 2 -> Long.MAX_VALUE / 1000 - random.nextInt(2) + random.nextInt(2);
            default -> random.nextLong(0, Long.MAX_VALUE);
        };
        byte[] value = new byte[random.nextInt(300)];
        random.nextBytes(value);
        int cap = random.nextBoolean() ? value.length : random.nextInt(value.length + 1);
        return RejectedRecord.of("tópic-" + random.nextInt(3), random.nextInt(64), random.nextLong(0, Long.MAX_VALUE),
                timestamp, random.nextBoolean() ? "json_parse" : "column_limit", "err ✓ " + random.nextInt(), value, cap);
    }

    private static RejectedRecord withTimestamp(long timestampMs) {
        return RejectedRecord.of("t", 0, 1, timestampMs, "json_parse", "e", new byte[]{'{'}, 10);
    }
}
