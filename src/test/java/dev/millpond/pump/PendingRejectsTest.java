package dev.millpond.pump;

import dev.millpond.convert.ConvertedBatch;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.RejectedRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The records of the open flush that cannot become rows: generated poll batches with failures at random places, and
 * each row traces back to its Kafka record, each failure is kept with its partition and offset (or only counted when
 * the sink keeps no rejects).
 */
class PendingRejectsTest {

    private final BufferAllocator allocator = new RootAllocator();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MillpondMetrics metrics = new MillpondMetrics(registry, "t-events", "");

    @AfterEach
    void closeAllocator() {
        allocator.close();
    }

    @Test
    void rowsMapToTheValuesThatParsedAndEveryFailureIsKeptWithWhereItCameFrom() {
        for (long seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            boolean keep = random.nextBoolean();
            PendingRejects rejects = new PendingRejects(keep, 64, metrics);
            List<ConsumerRecord<byte[], byte[]>> sources = records(random, 1 + random.nextInt(50));
            TreeSet<Integer> failedAt = new TreeSet<>();
            for (int i = 0; i < sources.size(); i++) {
                if (random.nextInt(4) == 0) {
                    failedAt.add(i);
                }
            }
            int rows = sources.size() - failedAt.size();
            List<ConvertedBatch.Failure> failures = failedAt.stream()
                    .map(i -> new ConvertedBatch.Failure(i, "bad " + i)).toList();
            try (ConvertedBatch converted = new ConvertedBatch(rows == 0 ? null : root(rows), rows, failedAt.size(),
                    8L * rows, failures)) {

                int[] valueOfRow = rejects.setAsideUnparsed(converted, sources);

                List<Integer> parsed = new ArrayList<>();
                for (int i = 0; i < sources.size(); i++) {
                    if (!failedAt.contains(i)) {
                        parsed.add(i);
                    }
                }
                assertThat(valueOfRow).as("seed %d", seed).containsExactly(parsed.stream().mapToInt(i -> i).toArray());
                if (!keep) {
                    assertThat(rejects.isEmpty()).isTrue();
                    assertThat(rejects.bytes()).isZero();
                    continue;
                }
                assertThat(rejects.records()).extracting(RejectedRecord::offset).as("seed %d", seed)
                        .containsExactlyElementsOf(failedAt.stream().map(i -> sources.get(i).offset()).toList());
                assertThat(rejects.records()).allSatisfy(r -> {
                    assertThat(r.reason()).isEqualTo("json_parse");
                    assertThat(r.valueLength()).isEqualTo(sources.get((int) r.offset() % 1000).value().length);
                    assertThat(r.value().length).isLessThanOrEqualTo(64);
                });
                assertThat(rejects.bytes()).isEqualTo(
                        rejects.records().stream().mapToLong(RejectedRecord::bytes).sum());
            }
        }
    }

    @Test
    void withoutARootEveryValueThatDidNotFailWasAnObjectWithoutKeysAndIsKeptToo() {
        PendingRejects rejects = new PendingRejects(true, 64, metrics);
        List<ConsumerRecord<byte[], byte[]>> sources = records(new Random(1), 4);
        ConvertedBatch converted = new ConvertedBatch(null, 0, 4, 0, List.of(new ConvertedBatch.Failure(2, "bad")));

        assertThat(rejects.setAsideUnparsed(converted, sources)).isEmpty();

        assertThat(rejects.records()).extracting(RejectedRecord::offset, RejectedRecord::error).containsExactly(
                org.assertj.core.groups.Tuple.tuple(sources.get(2).offset(), "bad"),
                org.assertj.core.groups.Tuple.tuple(sources.get(0).offset(), "an object without keys"),
                org.assertj.core.groups.Tuple.tuple(sources.get(1).offset(), "an object without keys"),
                org.assertj.core.groups.Tuple.tuple(sources.get(3).offset(), "an object without keys"));
    }

    @Test
    void aConverterThatDoesNotListItsFailuresIsABugNotARowMixUp() {
        PendingRejects rejects = new PendingRejects(true, 64, metrics);
        try (ConvertedBatch converted = new ConvertedBatch(root(2), 2, 1, 16, List.of())) {
            assertThatThrownBy(() -> rejects.setAsideUnparsed(converted, records(new Random(2), 3)))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void rowsPastTheWidthBoundAreSetAsideCountedAndNameTheirColumnShortened() {
        for (boolean keep : new boolean[]{true, false}) {
            SimpleMeterRegistry own = new SimpleMeterRegistry();
            PendingRejects rejects = new PendingRejects(keep, 64, new MillpondMetrics(own, "t-events", ""));
            List<ConsumerRecord<byte[], byte[]>> sources = records(new Random(3), 6);
            int[] valueOfRow = {0, 2, 3, 5};
            String column = "c".repeat(150);

            rejects.setAsideTooWide(new ColumnBudget.Admitted(null, new int[]{1, 3}, column), valueOfRow, sources);

            assertThat(counter(own, "millpond.records.skipped", "column_limit")).isEqualTo(2);
            if (!keep) {
                assertThat(rejects.isEmpty()).isTrue();
                continue;
            }
            assertThat(rejects.records()).extracting(RejectedRecord::offset)
                    .containsExactly(sources.get(2).offset(), sources.get(5).offset());
            assertThat(rejects.records()).allSatisfy(r -> {
                assertThat(r.reason()).isEqualTo("column_limit");
                assertThat(r.error()).contains("c".repeat(100) + "…").doesNotContain("c".repeat(101));
            });
        }
    }

    @Test
    void rejectsAreCountedAsRejectedOnlyOnceTheirFlushCommittedAndClearEmptiesTheOpenSet() {
        PendingRejects rejects = new PendingRejects(true, 64, metrics);
        List<ConsumerRecord<byte[], byte[]>> sources = records(new Random(4), 3);
        rejects.setAsideUnparsed(new ConvertedBatch(null, 0, 3, 0, List.of(new ConvertedBatch.Failure(0, "x"),
                new ConvertedBatch.Failure(1, "y"), new ConvertedBatch.Failure(2, "z"))), sources);
        List<RejectedRecord> handedOff = rejects.records();
        assertThat(counter(registry, "millpond.records.rejected", "json_parse")).isZero();

        rejects.clear();
        assertThat(rejects.isEmpty()).isTrue();
        assertThat(rejects.bytes()).isZero();
        assertThat(handedOff).as("a copy, untouched by the clear").hasSize(3);

        rejects.committed(handedOff);
        assertThat(counter(registry, "millpond.records.rejected", "json_parse")).isEqualTo(3);
    }

    /** Records on random partitions with offsets 1000·k + index, values of random length (some over the cap). */
    private static List<ConsumerRecord<byte[], byte[]>> records(Random random, int n) {
        List<ConsumerRecord<byte[], byte[]>> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] value = ("{\"v\":\"" + "x".repeat(random.nextInt(120)) + "\"").getBytes(StandardCharsets.UTF_8);
            list.add(new ConsumerRecord<>("t", random.nextInt(4), 1000L * random.nextInt(1000) + i, null, value));
        }
        return list;
    }

    private VectorSchemaRoot root(int rows) {
        BigIntVector v = new BigIntVector("n", allocator);
        v.allocateNew(rows);
        v.setValueCount(rows);
        VectorSchemaRoot root = VectorSchemaRoot.of(v);
        root.setRowCount(rows);
        return root;
    }

    private static double counter(SimpleMeterRegistry registry, String name, String reason) {
        Counter c = registry.find(name).tag("reason", reason).counter();
        return c == null ? 0 : c.count();
    }
}
