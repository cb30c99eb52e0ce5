package dev.millpond.pump;

import dev.millpond.sinks.OffsetRange;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ledger over generated sequences of handled offsets: what it commits, what it hands to the sink, the timestamps of
 * each partition's first and last record, the hand-off.
 */
class OffsetLedgerTest {

    @Test
    void eachPartitionCoversFromItsLowestToItsHighestHandledOffsetInAnyArrivalOrder() {
        for (long seed = 0; seed < 300; seed++) {
            Random random = new Random(seed);
            OffsetLedger ledger = new OffsetLedger();
            Map<Integer, long[]> expected = new TreeMap<>();
            Map<String, Long> stamps = new java.util.HashMap<>();
            for (long[] handled : shuffledOffsets(random)) {
                int p = (int) handled[0];
                // Kafka timestamps need not follow offsets (CreateTime), and a record may carry none (-1).
                // The same offset read twice (two runs of one partition may overlap) is the same record.
                long timestamp = stamps.computeIfAbsent(p + "@" + handled[1],
                        k -> random.nextInt(10) == 0 ? -1 : random.nextLong(1L << 42));
                ledger.handled(p, handled[1], timestamp);
                expected.merge(p, new long[]{handled[1], handled[1]},
                        (a, b) -> new long[]{Math.min(a[0], b[0]), Math.max(a[1], b[1])});
            }
            Map<Integer, Long> newest = new TreeMap<>();
            for (Map.Entry<Integer, long[]> e : expected.entrySet()) {
                int p = e.getKey();
                assertThat(ledger.oldestTimestamp(p)).as("the lowest offset's stamp (seed %d)", seed)
                        .isEqualTo(stamps.get(p + "@" + e.getValue()[0]));
                newest.put(p, stamps.get(p + "@" + e.getValue()[1]));
            }
            assertThat(ledger.newestTimestamps()).as("the highest offset's stamp (seed %d)", seed).isEqualTo(newest);
            assertThat(ledger.oldestTimestamp(12)).as("a partition without records").isEqualTo(OffsetLedger.NO_RECORD);

            List<OffsetRange> wanted = new ArrayList<>();
            Map<Integer, Long> next = new TreeMap<>();
            Map<TopicPartition, OffsetAndMetadata> commit = new java.util.HashMap<>();
            expected.forEach((p, r) -> {
                wanted.add(new OffsetRange("t", p, r[0], r[1]));
                next.put(p, r[1] + 1);
                commit.put(new TopicPartition("t", p), new OffsetAndMetadata(r[1] + 1));
            });
            assertThat(ledger.ranges("t")).as("seed %d", seed).containsExactlyElementsOf(wanted);
            assertThat(ledger.nextOffsets()).as("seed %d", seed).isEqualTo(next);
            assertThat(ledger.commitRequest("t")).as("seed %d", seed).isEqualTo(commit);
            assertThat(ledger.isEmpty()).isEqualTo(expected.isEmpty());
        }
    }

    @Test
    void aHandOffTakesEverythingSoFarAndLaterOffsetsBelongToTheNextFlushOnly() {
        for (long seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            OffsetLedger open = new OffsetLedger();
            OffsetLedger reference = new OffsetLedger();
            for (long[] h : shuffledOffsets(random)) {
                open.handled((int) h[0], h[1], h[1] * 10);
                reference.handled((int) h[0], h[1], h[1] * 10);
            }

            OffsetLedger flushed = open.handOff();
            assertThat(open.isEmpty()).isTrue();
            assertThat(open.ranges("t")).isEmpty();
            assertThat(flushed.ranges("t")).as("seed %d", seed).isEqualTo(reference.ranges("t"));
            assertThat(flushed.newestTimestamps()).as("seed %d", seed).isEqualTo(reference.newestTimestamps());

            open.handled(99, 5, 50);
            assertThat(flushed.nextOffsets()).as("the flushed ledger is its own").doesNotContainKey(99);
            assertThat(open.nextOffsets()).containsExactly(Map.entry(99, 6L));

            flushed.clear();
            assertThat(flushed.isEmpty()).isTrue();
            assertThat(open.isEmpty()).as("clearing one ledger leaves the other").isFalse();
        }
    }

    @Test
    void nothingHandledMeansNothingToCommit() {
        OffsetLedger ledger = new OffsetLedger();
        assertThat(ledger.isEmpty()).isTrue();
        assertThat(ledger.commitRequest("t")).isEmpty();
        assertThat(ledger.handOff().isEmpty()).isTrue();
    }

    /** {partition, offset} pairs for up to 5 partitions, each a run of consecutive offsets, shuffled together. */
    private static List<long[]> shuffledOffsets(Random random) {
        List<long[]> all = new ArrayList<>();
        int partitions = random.nextInt(6);
        for (int i = 0; i < partitions; i++) {
            int p = random.nextInt(12);
            long start = random.nextInt(3) == 0 ? 0 : random.nextLong(1L << 40);
            int n = 1 + random.nextInt(30);
            for (int k = 0; k < n; k++) {
                all.add(new long[]{p, start + k});
            }
        }
        Collections.shuffle(all, random);
        return all;
    }
}
