package dev.millpond.sinks.ducklake;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.IntToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;

/** The plan's promises, over generated flushes: shared keys, long tails, rows wider than the budget alone. */
class ShredPlanTest {

    @Test
    void everyAnalysedPartFitsTheBudgetAndARestOnlyFollowsAFullRowGroup() {
        Random random = new Random(5);
        for (int round = 0; round < 3_000; round++) {
            int rows = 1 + random.nextInt(random.nextBoolean() ? 40 : 400);
            int pool = 1 + random.nextInt(300);
            long[] cost = new long[pool + 1];
            for (int node = 1; node <= pool; node++) {
                cost[node] = 1 + random.nextInt(3);
            }
            IntToLongFunction leaves = node -> cost[node];
            RowPaths paths = new RowPaths();
            List<Set<Integer>> sets = new ArrayList<>();
            double skew = 0.5 + random.nextDouble() * 3;
            int perRow = random.nextInt(30);
            for (int r = 0; r < rows; r++) {
                Set<Integer> set = new HashSet<>();
                int n = random.nextInt(perRow + 1);
                for (int k = 0; k < n; k++) {
                    // Skewed: low nodes are common to most rows, high ones a long tail.
                    set.add(1 + (int) Math.min(pool - 1, Math.floor(pool * Math.pow(random.nextDouble(), skew))));
                }
                set.forEach(paths::add);
                paths.endRow();
                sets.add(set);
            }
            long rowGroup = 1 + random.nextInt(64);
            long budget = 1 + random.nextInt(200);
            int maxSlices = 1 + random.nextInt(random.nextBoolean() ? 8 : 1000);

            ShredPlan plan = ShredPlan.of(paths, leaves, rowGroup, budget, maxSlices);

            String context = "round " + round;
            assertThat(plan.slices()).as(context).isNotEmpty().hasSizeLessThanOrEqualTo(maxSlices);
            Map<Integer, List<Integer>> bySlot = new HashMap<>();
            for (int r = 0; r < rows; r++) {
                bySlot.computeIfAbsent(plan.slot()[r], s -> new ArrayList<>()).add(r);
            }
            Set<Integer> slots = new HashSet<>();
            for (ShredPlan.Slice slice : plan.slices()) {
                slots.add(slice.prefixSlot());
                List<Integer> prefix = bySlot.getOrDefault(slice.prefixSlot(), List.of());
                Set<Integer> analysed = new HashSet<>();
                prefix.stream().filter(r -> !plan.tooWide().get(r)).forEach(r -> analysed.addAll(sets.get(r)));
                assertThat(analysed.stream().mapToLong(n -> cost[n]).sum())
                        .as(context).isLessThanOrEqualTo(budget);
                if (slice.hasRest()) {
                    slots.add(slice.restSlot());
                    assertThat((long) prefix.size()).as(context).isGreaterThanOrEqualTo(rowGroup);
                    assertThat(bySlot.get(slice.restSlot())).as(context).isNotEmpty();
                }
            }
            assertThat(slots).as(context).containsAll(bySlot.keySet());
            long total = sets.stream().flatMap(Set::stream).distinct().mapToLong(n -> cost[n]).sum();
            if (total <= budget) {
                assertThat(plan.trivial()).as(context).isTrue();
            }
            if (maxSlices >= rows) {
                for (int r = plan.tooWide().nextSetBit(0); r >= 0; r = plan.tooWide().nextSetBit(r + 1)) {
                    long own = sets.get(r).stream().mapToLong(n -> cost[n]).sum();
                    assertThat(own).as(context + " row " + r + " nulled though it fits alone").isGreaterThan(budget);
                }
            }
        }
    }

    @Test
    void aLongTailBehindAFullRowGroupOfSharedKeysIsOneInsertWithNothingNulled() {
        RowPaths paths = new RowPaths();
        int rows = 5_000;
        for (int r = 0; r < rows; r++) {
            for (int k = 1; k <= 20; k++) {
                paths.add(k);
            }
            if (r % 3 == 0) {
                // A key of its own: 1,667 rare keys, far beyond any budget together.
                paths.add(100 + r);
            }
            paths.endRow();
        }
        ShredPlan plan = ShredPlan.of(paths, node -> 2, 1_024, 100, 8);

        assertThat(plan.slices()).hasSize(1);
        assertThat(plan.slices().get(0).hasRest()).isTrue();
        assertThat(plan.tooWide().isEmpty()).isTrue();
        long prefix = java.util.Arrays.stream(plan.slot()).filter(s -> s == plan.slices().get(0).prefixSlot()).count();
        // The budget takes the 20 shared keys (40 leaves), then 30 of the rare ones (60): their rows join the prefix.
        assertThat(prefix).isEqualTo(rows - (rows + 2) / 3 + 30);
    }
}
