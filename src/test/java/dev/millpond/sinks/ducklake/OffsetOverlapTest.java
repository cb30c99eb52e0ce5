package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.OffsetRange;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Generated histories of one writer per partition: flushes that continue the partition or skip ahead over any gap
 * (filtered records, transaction markers, retention) are never overlaps; a second owner's flush that starts anywhere
 * below the recorded next offset always is, and only on its own partition.
 */
class OffsetOverlapTest {

    @RepeatedTest(50)
    void onlyAStartBelowTheRecordedNextOffsetOverlaps(RepetitionInfo repetition) {
        Random random = new Random(repetition.getCurrentRepetition());
        int partitions = 1 + random.nextInt(6);
        Map<Integer, Long> next = new HashMap<>();
        for (int flush = 0; flush < 30; flush++) {
            List<OffsetRange> ranges = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                if (random.nextInt(3) == 0) {
                    continue; // this flush holds nothing of p
                }
                long first = next.getOrDefault(p, (long) random.nextInt(1000))
                        + (random.nextInt(4) == 0 ? random.nextInt(50) : 0);
                ranges.add(new OffsetRange("t", p, first, first + random.nextInt(100)));
            }
            assertThat(OffsetOverlap.find(ranges, Map.of("t", Map.copyOf(next)))).as("flush %d", flush).isEmpty();
            ranges.forEach(r -> next.put(r.partition(), r.next()));
        }
        int victim = next.keySet().stream().toList().get(random.nextInt(next.size()));
        long recorded = next.get(victim);
        long start = recorded - 1 - random.nextInt((int) Math.min(recorded, 500));
        List<OffsetRange> second = new ArrayList<>(List.of(new OffsetRange("t", victim, start,
                start + random.nextInt(1000))));
        next.forEach((p, n) -> {
            if (p != victim) {
                second.add(new OffsetRange("t", p, n, n + 5));
            }
        });

        assertThat(OffsetOverlap.find(second, Map.of("t", next)))
                .containsExactly(new OffsetOverlap(second.get(0), recorded));
        assertThat(OffsetOverlap.find(second, Map.of("other-topic", next))).as("another topic's offsets").isEmpty();
    }
}
