package dev.millpond.pump;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-cycle time accounts: each phase sums its own samples, a hand-off takes them all and starts at zero. */
class FlushPhasesTest {

    private static final String[] NAMES = {"poll", "convert", "stages", "unify", "sort", "write", "commit", "wait"};
    private static final java.util.List<BiConsumer<FlushPhases, Long>> ADD = java.util.List.of(
            FlushPhases::poll, FlushPhases::convert, FlushPhases::stages, FlushPhases::unify, FlushPhases::sort,
            FlushPhases::write, FlushPhases::commit, FlushPhases::waited);

    @Test
    void eachPhaseSumsItsSamplesAndTheHandOffLeavesTheNextCycleAtZero() {
        for (long seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            FlushPhases phases = new FlushPhases();
            long[] sums = new long[NAMES.length];
            int samples = random.nextInt(60);
            for (int i = 0; i < samples; i++) {
                int phase = random.nextInt(NAMES.length);
                long nanos = random.nextLong(5_000_000_000L);
                ADD.get(phase).accept(phases, nanos);
                sums[phase] += nanos;
            }

            FlushPhases flushed = phases.handOff();

            assertThat(flushed.summary()).as("seed %d", seed).isEqualTo(summary(i -> sums[i] / 1e9));
            assertThat(phases.summary()).as("seed %d", seed).isEqualTo(summary(i -> 0.0));
            ADD.get(0).accept(phases, 1_000_000_000L);
            assertThat(flushed.summary()).as("the handed-off counters are the flush's own")
                    .isEqualTo(summary(i -> sums[i] / 1e9));
        }
    }

    @Test
    void theSummaryNamesEveryPhaseInCycleOrderInSecondsWithTwoDecimals() {
        FlushPhases phases = new FlushPhases();
        for (int i = 0; i < ADD.size(); i++) {
            ADD.get(i).accept(phases, (i + 1) * 1_010_000_000L);
        }
        assertThat(phases.summary()).isEqualTo("poll=1.01s convert=2.02s stages=3.03s unify=4.04s sort=5.05s "
                + "write=6.06s commit=7.07s wait=8.08s");
    }

    private static String summary(Function<Integer, Double> seconds) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < NAMES.length; i++) {
            s.append(i == 0 ? "" : " ").append(NAMES[i]).append('=')
                    .append(String.format(java.util.Locale.ROOT, "%.2f", seconds.apply(i))).append('s');
        }
        return s.toString();
    }
}
