package dev.millpond.pump;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The adaptive consume size: the fuller the buffer, the fewer records a poll may bring, never fewer than 10. */
class PumpSettingsTest {

    @Test
    void theOriginalsExamples() {
        PumpSettings settings = settings(200_000, 100);
        assertThat(settings.batchSize(0)).isEqualTo(100);
        assertThat(settings.batchSize(100_000)).isEqualTo(50);
        assertThat(settings.batchSize(199_999)).isEqualTo(10);
        assertThat(settings.batchSize(500_000)).as("past FLUSH_SIZE").isEqualTo(10);
        assertThat(settings(200_000, 3).batchSize(0)).as("CONSUME_BATCH_SIZE floored at 10").isEqualTo(10);
        assertThat(settings(0, 100).batchSize(1L << 40)).as("FLUSH_SIZE ≤ 0: no backpressure").isEqualTo(100);
        assertThat(settings(-1, 5).batchSize(7)).isEqualTo(10);
    }

    @Test
    void theSizeShrinksAsTheBufferFillsAndStaysBetweenTheFloorAndTheConfiguredSize() {
        Random random = new Random(24);
        for (int i = 0; i < 2_000; i++) {
            long flushSize = 1 + random.nextLong(1L << 34);
            int consume = random.nextInt(100_000);
            PumpSettings settings = settings(flushSize, consume);
            long a = random.nextLong(2 * flushSize);
            long b = a + random.nextLong(flushSize);
            String at = "FLUSH_SIZE=" + flushSize + " CONSUME_BATCH_SIZE=" + consume + " pending=" + a + "," + b;

            assertThat(settings.batchSize(a)).as(at).isGreaterThanOrEqualTo(settings.batchSize(b))
                    .isBetween(PumpSettings.MIN_BATCH, Math.max(PumpSettings.MIN_BATCH, consume))
                    .isEqualTo(Math.max(PumpSettings.MIN_BATCH, (int) (consume * (1.0 - (double) a / flushSize))));
            assertThat(settings.batchSize(flushSize + a)).as(at).isEqualTo(PumpSettings.MIN_BATCH);
        }
    }

    private static PumpSettings settings(long flushSize, int consumeBatchSize) {
        return new PumpSettings("t", flushSize, 60_000, consumeBatchSize, 0, 65_536, Long.MAX_VALUE, true, 16L << 20);
    }
}
