package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.OffsetRange;
import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The partition fence's read ({@link LakeOffsets#recordedAbove}) counts the rows the startup read
 * ({@link LakeOffsets#recorded(String, String)}) counts, on generated histories of a real lake's
 * {@code _millpond_offsets}: rows of the live topic's id, of other ids (a topic deleted and created again) and without
 * an id (written before ids were recorded), read with floors anywhere.
 */
@ServiceBacked
class LakeOffsetsTest {

    private static final List<Optional<String>> IDS = List.of(Optional.empty(), Optional.of("id-a"),
            Optional.of("id-b"));

    @Test
    void theFencesReadCountsTheRowsTheStartupReadCounts() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            Connection lake = f.query();
            int toldApart = 0;
            for (int seed = 1; seed <= 12; seed++) {
                Random random = new Random(seed);
                LakeOffsets offsets = new LakeOffsets(lake, "main", SinkFixture.TABLE, "group-" + seed);
                offsets.ensureTable();
                int flushes = 1 + random.nextInt(4);
                for (int flush = 0; flush < flushes; flush++) {
                    List<OffsetRange> ranges = new ArrayList<>();
                    // Mostly one id per history, as in a lake; sometimes a second one, or none at all.
                    Optional<String> id = IDS.get(random.nextInt(IDS.size()));
                    for (int p = 0; p < 4; p++) {
                        if (random.nextBoolean()) {
                            long first = base(p, seed) + random.nextInt(200);
                            ranges.add(new OffsetRange("t", p, first, first + random.nextInt(50), id));
                        }
                    }
                    if (!ranges.isEmpty()) {
                        offsets.insert(ranges);
                    }
                }
                Map<Integer, Long> floors = new TreeMap<>();
                for (int p = 0; p < 5; p++) {
                    floors.put(p, base(p, seed) + random.nextInt(260) - 10);
                }

                Map<Integer, Long> byName = offsets.recordedAbove("t", Optional.empty(), floors);
                assertThat(byName).as("seed %d, by name", seed).isEqualTo(above(offsets.recorded("t"), floors));
                for (String live : List.of("id-a", "id-b", "id-c")) {
                    Map<Integer, Long> byId = offsets.recordedAbove("t", Optional.of(live), floors);
                    assertThat(byId).as("seed %d, live %s", seed, live)
                            .isEqualTo(above(offsets.recorded("t", live).next(), floors));
                    toldApart += byId.equals(byName) ? 0 : 1;
                }
                assertThat(offsets.recordedAbove("other", Optional.of("id-a"), floors)).isEmpty();
            }
            assertThat(toldApart).as("histories where the topic id changed what fences").isPositive();
        }
    }

    /**
     * Where a partition's offsets start: in even seeds the partitions lie further apart than
     * {@link LakeOffsets#FLOOR_SPREAD}, so the read takes several scans and each must hold to its partitions' floors.
     */
    private static long base(int partition, int seed) {
        return seed % 2 == 0 ? partition * (LakeOffsets.FLOOR_SPREAD + 7) / 2 : 0;
    }

    @Test
    void partitionsShareAScanOnlyWhenTheirFloorsLieClose() {
        long spread = LakeOffsets.FLOOR_SPREAD;
        assertThat(LakeOffsets.floorGroups(Map.of(0, 10L, 1, 12L, 2, 5L))).containsExactly(List.of(2, 0, 1));
        assertThat(LakeOffsets.floorGroups(Map.of(0, 0L, 1, spread, 2, spread + 1, 3, 3 * spread)))
                .containsExactly(List.of(0, 1), List.of(2), List.of(3));
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            Map<Integer, Long> floors = new TreeMap<>();
            for (int p = 0; p < 1 + random.nextInt(12); p++) {
                floors.put(p, (long) random.nextInt(4) * spread + random.nextInt((int) spread));
            }
            List<List<Integer>> groups = LakeOffsets.floorGroups(floors);
            assertThat(groups.stream().mapToInt(List::size).sum()).isEqualTo(floors.size());
            assertThat(groups.stream().flatMap(List::stream).distinct().count()).isEqualTo(floors.size());
            for (List<Integer> group : groups) {
                long lowest = group.stream().mapToLong(floors::get).min().orElseThrow();
                assertThat(group).allSatisfy(p -> assertThat(floors.get(p) - lowest).isLessThanOrEqualTo(spread));
            }
            assertThat(groups.size()).as("no more scans than distinct spans of floors")
                    .isLessThanOrEqualTo(1 + (int) ((floors.values().stream().mapToLong(Long::longValue).max()
                    .orElseThrow() - floors.values().stream().mapToLong(Long::longValue).min().orElseThrow())
                    / spread));
        }
    }

    private static Map<Integer, Long> above(Map<Integer, Long> recorded, Map<Integer, Long> floors) {
        Map<Integer, Long> above = new TreeMap<>();
        floors.forEach((p, floor) -> {
            Long next = recorded.get(p);
            if (next != null && next > floor) {
                above.put(p, next);
            }
        });
        return above;
    }
}
