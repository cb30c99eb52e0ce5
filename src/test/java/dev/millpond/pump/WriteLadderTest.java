package dev.millpond.pump;

import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.WriteFailure;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The retry ladder on its own: a scripted sink answers each attempt with a verdict or success, sleeps and outage waits
 * are recorded instead of slept, and the outage budget is measured on a clock the waits advance.
 */
class WriteLadderTest {

    private static final FlushBatch BATCH = new FlushBatch(new Schema(List.of()), List.of(), 7);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MillpondMetrics metrics = new MillpondMetrics(registry, "t-events", "");
    private final PumpHealth health = new PumpHealth();
    private final List<Double> sleeps = new ArrayList<>();
    private final List<Double> outageWaits = new ArrayList<>();
    /** The clock the outage budget is measured on: the recorded sleeps and waits advance it. */
    private long nanoTime;

    WriteLadderTest() {
        health.sinkReady();
        health.partitionsAssigned();
    }

    @Test
    void aRetryableFailureGetsTheShortLadderAndTheSinkSeesEachAttemptNumber() {
        ScriptedSink sink = new ScriptedSink(WriteFailure.retryable(ErrorType.DUCKLAKE_COMMIT_CONTENTION),
                WriteFailure.retryable(ErrorType.DUCKLAKE_COMMIT_CONTENTION), null);

        assertThat(ladder(sink, Duration.ofSeconds(300)).write(BATCH, this::recordWait)).isEqualTo(7);

        assertThat(sink.attempts).containsExactly(1, 2, 3);
        assertThat(sleeps).hasSize(2);
        assertThat(sleeps.get(0)).isBetween(1.0, 1.25);
        assertThat(sleeps.get(1)).isBetween(2.0, 2.5);
        assertThat(outageWaits).isEmpty();
        assertThat(errors("ducklake_commit_contention")).isEqualTo(2);
        assertThat(health.ready()).as("contention is not an outage").isTrue();
    }

    @Test
    void aRetryableFailureIsNotWaitedOutEvenWithABudget() {
        ScriptedSink sink = new ScriptedSink(always(WriteFailure.retryable(ErrorType.WRITE_RETRY)));

        assertThatThrownBy(() -> ladder(sink, Duration.ofSeconds(300)).write(BATCH, this::recordWait))
                .isInstanceOf(PumpFailure.class).hasMessage("Write failed after 3 attempts");
        assertThat(errors("write_retry")).isEqualTo(3);
        assertThat(outageWaits).isEmpty();
    }

    @Test
    void aPermanentFailureStopsAtOnce() {
        ScriptedSink sink = new ScriptedSink(always(WriteFailure.permanent(ErrorType.SCHEMA)));

        assertThatThrownBy(() -> ladder(sink, Duration.ofSeconds(300)).write(BATCH, this::recordWait))
                .isInstanceOf(PumpFailure.class).hasMessageContaining("permanently");
        assertThat(sink.attempts).containsExactly(1);
        assertThat(errors("schema")).isEqualTo(1);
        assertThat(sleeps).isEmpty();
    }

    @Test
    void anOutageIsWaitedOutPastTheShortLadderAndReadinessComesBackWithTheWrite() {
        List<WriteFailure> script = new ArrayList<>(always(WriteFailure.unavailable(ErrorType.WRITE_RETRY)).subList(0, 8));
        script.add(null);
        ScriptedSink sink = new ScriptedSink(script);
        List<Boolean> readyWhileWaiting = new ArrayList<>();

        long written = ladder(sink, Duration.ofSeconds(300)).write(BATCH, seconds -> {
            readyWhileWaiting.add(health.ready());
            return recordWait(seconds);
        });

        assertThat(written).isEqualTo(7);
        assertThat(sink.attempts).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(sleeps).hasSize(2);
        assertThat(outageWaits).hasSize(6);
        assertThat(readyWhileWaiting).containsOnly(false);
        assertThat(health.ready()).isTrue();
        assertThat(errors("write_retry")).as("every failed attempt counted").isEqualTo(8);
    }

    @RepeatedTest(20)
    void outageWaitsGrowCappedWithJitterAndHonourRetryAfter() {
        WriteRetry retry = WriteRetry.duckLakeWrites(Duration.ofSeconds(300));
        double previousMax = 0;
        for (int made = 3; made < 12; made++) {
            double d = retry.outageDelaySeconds(made, Optional.empty());
            double nominal = Math.min(Math.pow(2, made - 1), WriteRetry.OUTAGE_CAP_SECONDS);
            assertThat(d).isBetween(0.75 * nominal, nominal);
            assertThat(nominal).isGreaterThanOrEqualTo(previousMax);
            previousMax = nominal;
        }
        assertThat(retry.outageDelaySeconds(3, Optional.of(Duration.ofSeconds(9)))).isGreaterThanOrEqualTo(9.0);
        assertThat(retry.outageDelaySeconds(3, Optional.of(Duration.ofSeconds(600))))
                .isEqualTo(WriteRetry.OUTAGE_CAP_SECONDS);
    }

    @Test
    void theBudgetEndsTheOutageWithAFailureThatSaysSo() {
        ScriptedSink sink = new ScriptedSink(always(WriteFailure.unavailable(ErrorType.WRITE_RETRY)));
        WriteLadder ladder = ladder(sink, Duration.ofSeconds(10));

        assertThatThrownBy(() -> ladder.write(BATCH, this::recordWait))
                .isInstanceOf(PumpFailure.class).hasMessageContaining("stayed unavailable").hasMessageContaining("budget 10s");
        // The short ladder's sleeps (about 3.5 s) spend the budget too; the last outage wait is cut to what is left.
        assertThat(outageWaits).isNotEmpty();
        double spent = sleeps.stream().mapToDouble(Double::doubleValue).sum()
                + outageWaits.stream().mapToDouble(Double::doubleValue).sum();
        assertThat(spent).isCloseTo(10.0, within(1e-6));
        assertThat(health.ready()).isFalse();
    }

    @Test
    void zeroBudgetMeansTheShortLadderOnly() {
        ScriptedSink sink = new ScriptedSink(always(WriteFailure.unavailable(ErrorType.WRITE_RETRY)));

        assertThatThrownBy(() -> ladder(sink, Duration.ZERO).write(BATCH, this::recordWait))
                .isInstanceOf(PumpFailure.class).hasMessageContaining("after 3 attempts");
        assertThat(outageWaits).isEmpty();
    }

    @Test
    void aStopRequestDuringTheOutageAbandonsTheFlush() {
        ScriptedSink sink = new ScriptedSink(always(WriteFailure.unavailable(ErrorType.WRITE_RETRY)));

        assertThatThrownBy(() -> ladder(sink, Duration.ofSeconds(300)).write(BATCH, seconds -> false))
                .isInstanceOf(WriteLadder.Abandoned.class);
        assertThat(sink.attempts).containsExactly(1, 2, 3);
    }

    @Test
    void aRandomScriptNeverSkipsAnAttemptNumberAndCountsEveryFailure() {
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            SimpleMeterRegistry r = new SimpleMeterRegistry();
            List<WriteFailure> script = new ArrayList<>();
            int failures = random.nextInt(6);
            for (int i = 0; i < failures; i++) {
                script.add(random.nextBoolean() ? WriteFailure.unavailable(ErrorType.WRITE_RETRY)
                        : WriteFailure.retryable(ErrorType.WRITE_RETRY));
            }
            script.add(null);
            ScriptedSink sink = new ScriptedSink(script);
            WriteLadder ladder = new WriteLadder(sink, new MillpondMetrics(r, "t-events", ""), new PumpHealth(),
                    WriteRetry.duckLakeWrites(Duration.ofSeconds(300)), s -> { });
            try {
                ladder.write(BATCH, s -> true);
                // Success is only possible if no non-outage failure came at attempt 3 or later.
                for (int i = 2; i < failures; i++) {
                    assertThat(script.get(i).kind()).isEqualTo(WriteFailure.Kind.UNAVAILABLE);
                }
            } catch (PumpFailure e) {
                assertThat(sink.attempts.size()).isGreaterThanOrEqualTo(3);
                assertThat(script.get(sink.attempts.size() - 1).kind()).isEqualTo(WriteFailure.Kind.RETRYABLE);
            }
            for (int i = 0; i < sink.attempts.size(); i++) {
                assertThat(sink.attempts.get(i)).isEqualTo(i + 1);
            }
            Counter c = r.find("millpond.errors").tag("type", "write_retry").counter();
            long failed = sink.attempts.size() - (script.get(sink.attempts.size() - 1) == null ? 1 : 0);
            assertThat(c == null ? 0 : (long) c.count()).isEqualTo(failed);
        }
    }

    @Test
    void hoglakeRetriesItsConfiguredAttemptsOnTheOneToThirtySecondStepsWithRetryAfterAsAFloor() {
        List<WriteFailure> script = new ArrayList<>(always(WriteFailure.retryable(ErrorType.HOGLAKE_COMMIT_CONTENTION))
                .subList(0, 7));
        script.set(0, WriteFailure.retryable(ErrorType.WRITE_RETRY).withRetryAfter(Duration.ofSeconds(3)));
        script.add(null);
        ScriptedSink sink = new ScriptedSink(script);
        WriteLadder ladder = new WriteLadder(sink, metrics, health, WriteRetry.hoglakeWrites(8, Duration.ZERO),
                sleeps::add);

        assertThat(ladder.write(BATCH, this::recordWait)).isEqualTo(7);

        assertThat(sink.attempts).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        double[] floors = {3, 2, 4, 8, 16, 30, 30};
        assertThat(sleeps).hasSize(7);
        for (int i = 0; i < floors.length; i++) {
            assertThat(sleeps.get(i)).as("sleep %d", i + 1).isBetween(floors[i], Math.min(30, floors[i] * 1.25));
        }
        assertThat(errors("hoglake_commit_contention")).isEqualTo(6);
        assertThat(errors("write_retry")).isEqualTo(1);
    }

    @Test
    void hoglakeStopsAfterItsConfiguredAttemptsAndAtOnceOnAPermanentFailure() {
        ScriptedSink sink = new ScriptedSink(always(WriteFailure.retryable(ErrorType.WRITE_RETRY)));
        assertThatThrownBy(() -> new WriteLadder(sink, metrics, health, WriteRetry.hoglakeWrites(4, Duration.ZERO),
                sleeps::add).write(BATCH, this::recordWait)).hasMessage("Write failed after 4 attempts");
        ScriptedSink refused = new ScriptedSink(always(WriteFailure.permanent(ErrorType.WRITE_RETRY)));
        assertThatThrownBy(() -> new WriteLadder(refused, metrics, health, WriteRetry.hoglakeWrites(8, Duration.ZERO),
                sleeps::add).write(BATCH, this::recordWait)).hasMessageContaining("permanently");
        assertThat(refused.attempts).containsExactly(1);
    }

    private WriteLadder ladder(Sink sink, Duration budget) {
        return new WriteLadder(sink, metrics, health, WriteRetry.duckLakeWrites(budget), this::recordSleep,
                () -> nanoTime);
    }

    private void recordSleep(double seconds) {
        sleeps.add(seconds);
        nanoTime += Math.round(seconds * 1e9);
    }

    private boolean recordWait(double seconds) {
        outageWaits.add(seconds);
        nanoTime += Math.round(seconds * 1e9);
        return true;
    }

    private double errors(String type) {
        Counter c = registry.find("millpond.errors").tag("type", type).counter();
        return c == null ? 0 : c.count();
    }

    private static List<WriteFailure> always(WriteFailure verdict) {
        List<WriteFailure> script = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            script.add(verdict);
        }
        return script;
    }
}
