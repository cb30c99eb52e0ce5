package dev.millpond.pump;

import dev.millpond.observability.ErrorType;
import dev.millpond.observability.FlushTrigger;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.WriteFailure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Where a flush is written: inline on the pump thread, or on the one writer thread; a stop gives up an outage wait;
 * a shut-down writer fails what it is given instead of dropping it.
 */
class FlushWriterTest {

    private static final WriteFailure DOWN = WriteFailure.unavailable(ErrorType.WRITE_RETRY);

    private final MillpondMetrics metrics = new MillpondMetrics(new SimpleMeterRegistry(), "t-events", "");
    private final PumpHealth health = new PumpHealth();

    @Test
    void inlineTheWriteHasEndedWhenStartReturnsAndRanOnTheCallersThread() {
        ScriptedSink sink = new ScriptedSink(attempt -> null);
        try (FlushWriter writer = FlushWriter.inline(ladder(sink), seconds -> true)) {
            InFlightFlush flush = flush();
            writer.start(flush);
            assertThat(writer.overlaps()).isFalse();
            assertThat(flush.isDone()).isTrue();
            assertThat(flush.rowsWritten()).isEqualTo(3);
            assertThat(sink.threads).containsExactly(Thread.currentThread().getName());
        }
    }

    @Test
    void inlineAnOutageIsWaitedOutWithTheCallersWait() {
        ScriptedSink sink = new ScriptedSink(attempt -> attempt <= 3 ? DOWN : null);
        List<Double> waits = new java.util.ArrayList<>();
        try (FlushWriter writer = FlushWriter.inline(ladder(sink), seconds -> waits.add(seconds))) {
            InFlightFlush flush = flush();
            writer.start(flush);
            assertThat(flush.rowsWritten()).isEqualTo(3);
            assertThat(waits).hasSize(1);
        }
    }

    @Test
    void overlappedTheWriteRunsOnTheWriterThreadAndEndsThere() {
        CountDownLatch release = new CountDownLatch(1);
        ScriptedSink sink = landsOnceReleased(release);
        FlushWriter writer = FlushWriter.overlapped(ladder(sink));
        try {
            InFlightFlush flush = flush();
            writer.start(flush);
            assertThat(writer.overlaps()).isTrue();
            assertThat(flush.await(100)).as("the caller goes on while the write runs").isFalse();
            release.countDown();
            assertThat(flush.await(10_000)).isTrue();
            assertThat(flush.rowsWritten()).isEqualTo(3);
            assertThat(sink.threads).containsExactly("millpond-writer");
        } finally {
            assertThat(writer.shutDown(null, 0)).isTrue();
        }
    }

    @Test
    void overlappedAStopEndsAnOutageWaitAndTheFlushIsAbandoned() {
        CountDownLatch failing = new CountDownLatch(3);
        ScriptedSink sink = new ScriptedSink(attempt -> {
            failing.countDown();
            return DOWN;
        });
        FlushWriter writer = FlushWriter.overlapped(ladder(sink));
        InFlightFlush flush = flush();
        writer.start(flush);
        await(failing);
        assertThat(flush.await(200)).as("waiting out the outage").isFalse();

        writer.requestStop();

        assertThat(flush.await(10_000)).isTrue();
        assertThatThrownBy(flush::rowsWritten).isInstanceOf(WriteLadder.Abandoned.class);
        assertThat(writer.shutDown(flush, 1_000)).isTrue();
    }

    @Test
    void aWriteStillRunningAfterTheGraceKeepsItsMemoryAndAShutWriterFailsNewFlushes() {
        CountDownLatch release = new CountDownLatch(1);
        ScriptedSink sink = landsOnceReleased(release);
        FlushWriter writer = FlushWriter.overlapped(ladder(sink));
        InFlightFlush hung = flush();
        writer.start(hung);

        assertThat(writer.shutDown(hung, 50)).as("the caller must not release a flush still being read").isFalse();

        InFlightFlush late = flush();
        writer.start(late);
        assertThat(late.isDone()).isTrue();
        assertThatThrownBy(late::rowsWritten).isInstanceOf(PumpFailure.class).hasMessageContaining("shut down");
        release.countDown();
        assertThat(hung.await(10_000)).isTrue();
    }

    private WriteLadder ladder(Sink sink) {
        health.sinkReady();
        return new WriteLadder(sink, metrics, health, WriteRetry.duckLakeWrites(Duration.ofSeconds(300)),
                seconds -> { });
    }

    private static InFlightFlush flush() {
        return new InFlightFlush(FlushTrigger.TIME, System.nanoTime(), 10, 3,
                new FlushBatch(new Schema(List.of()), List.of(), 3), List.of(), new OffsetLedger(), List.of(),
                new FlushPhases());
    }

    /** A sink whose write blocks until {@code release} opens, then lands. */
    private static ScriptedSink landsOnceReleased(CountDownLatch release) {
        return new ScriptedSink(attempt -> {
            await(release);
            return null;
        });
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
