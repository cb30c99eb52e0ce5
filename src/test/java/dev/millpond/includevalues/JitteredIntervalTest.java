package dev.millpond.includevalues;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

class JitteredIntervalTest {

    @Test
    void theDelayIsTheIntervalTimesUniformPointNineToOnePointOne() {
        Duration interval = Duration.ofSeconds(60);
        assertThat(new JitteredInterval(interval, () -> 0.0).next()).isEqualTo(Duration.ofSeconds(54));
        assertThat(new JitteredInterval(interval, () -> 0.5).next()).isEqualTo(Duration.ofSeconds(60));
        assertThat(new JitteredInterval(interval, () -> 0.75).next()).isEqualTo(Duration.ofSeconds(63));
    }

    @Test
    void eachDelayIsDrawnAfreshWithinTheBounds() {
        JitteredInterval delays = new JitteredInterval(Duration.ofSeconds(10),
                () -> ThreadLocalRandom.current().nextDouble());
        long distinct = java.util.stream.Stream.generate(delays::next).limit(200)
                .peek(d -> assertThat(d).isBetween(Duration.ofSeconds(9), Duration.ofSeconds(11)))
                .distinct().count();
        assertThat(distinct).isGreaterThan(100);
    }
}
