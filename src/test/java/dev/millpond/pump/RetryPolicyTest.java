package dev.millpond.pump;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The two retry ladders: their exact steps, and the jitter and Retry-After bounds over generated attempts. */
class RetryPolicyTest {

    @Test
    void offsetCommitsSleepHalfASecondThenOneSecondWithoutJitter() {
        RetryPolicy commits = RetryPolicy.offsetCommits();
        assertThat(commits.attempts()).isEqualTo(3);
        for (int i = 0; i < 50; i++) {
            assertThat(commits.delaySeconds(0)).isEqualTo(0.5);
            assertThat(commits.delaySeconds(1)).isEqualTo(1.0);
        }
    }

    @Test
    void duckLakeWritesSleepOneThenTwoSecondsPlusAtMostAQuarter() {
        RetryPolicy writes = RetryPolicy.duckLakeWrites();
        assertThat(writes.attempts()).isEqualTo(3);
        for (int i = 0; i < 500; i++) {
            assertThat(writes.delaySeconds(0)).isBetween(1.0, 1.25);
            assertThat(writes.delaySeconds(1)).isBetween(2.0, 2.5);
        }
    }

    @Test
    void hoglakeStepsDoubleUpToThirtyAndAThirtySecondStepStaysThirty() {
        RetryPolicy writes = RetryPolicy.hoglakeWrites(8);
        double[] steps = {1, 2, 4, 8, 16, 30, 30};
        for (int i = 0; i < 200; i++) {
            for (int a = 0; a < steps.length; a++) {
                double d = writes.delaySeconds(a);
                assertThat(d).as("step %d", a).isBetween(steps[a], Math.min(steps[a] * 1.25, 30));
            }
            assertThat(writes.delaySeconds(5)).isEqualTo(30.0);
        }
    }

    @Test
    void anyLadderStaysWithinItsStepItsJitterAndTheCapAndHonoursACappedRetryAfter() {
        Random random = new Random(24);
        for (int i = 0; i < 5_000; i++) {
            double base = 0.1 + random.nextDouble() * 5;
            boolean jitter = random.nextBoolean();
            RetryPolicy policy = new RetryPolicy(1 + random.nextInt(10), base, jitter);
            int a = random.nextInt(40);
            Optional<Duration> hint = random.nextBoolean() ? Optional.empty()
                    : Optional.of(Duration.ofMillis(random.nextInt(120_000)));

            double step = Math.min(base * Math.pow(2, a), RetryPolicy.CAP_SECONDS);
            double floor = hint.map(h -> Math.max(step, Math.min(h.toMillis() / 1000.0, RetryPolicy.CAP_SECONDS)))
                    .orElse(step);
            double d = policy.delaySeconds(a, hint);

            String at = String.format("base=%s jitter=%s a=%d hint=%s", base, jitter, a, hint);
            assertThat(d).as(at).isGreaterThanOrEqualTo(floor).isLessThanOrEqualTo(RetryPolicy.CAP_SECONDS);
            if (jitter) {
                assertThat(d).as(at).isLessThanOrEqualTo(Math.min(floor * 1.25, RetryPolicy.CAP_SECONDS));
            } else {
                assertThat(d).as(at).isEqualTo(floor);
            }
        }
    }
}
