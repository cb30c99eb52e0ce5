package dev.millpond.pump;

import dev.millpond.observability.FlushTrigger;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.testsupport.Await;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One flush between hand-off and commit: its outcome as the writer reports it, and its Arrow memory. */
class InFlightFlushTest {

    private final List<String> closed = new ArrayList<>();

    @Test
    void aSuccessfulWriteGivesItsRowsAndItsTimeToTheFlushAndItsPhases() {
        InFlightFlush flush = flush();
        assertThat(flush.isDone()).isFalse();
        assertThat(flush.await(1)).isFalse();

        flush.writeEnded(2_500_000_000L, 42L, null);

        assertThat(flush.isDone()).isTrue();
        assertThat(flush.await(0)).isTrue();
        assertThat(flush.rowsWritten()).isEqualTo(42);
        assertThat(flush.writeSeconds()).isEqualTo(2.5);
        assertThat(flush.phases.summary()).contains("write=2.50s");
    }

    @Test
    void aFailedWriteIsRethrownAsItsOwnKindOrAsAPumpFailure() {
        InFlightFlush abandoned = flush();
        abandoned.writeEnded(1, null, new WriteLadder.Abandoned("stop", null));
        assertThat(abandoned.await(0)).as("a failed write has ended too").isTrue();
        assertThatThrownBy(abandoned::rowsWritten).isInstanceOf(WriteLadder.Abandoned.class);

        InFlightFlush checked = flush();
        checked.writeEnded(1, null, new java.io.IOException("disk"));
        assertThatThrownBy(checked::rowsWritten).isInstanceOf(PumpFailure.class).hasMessage("Write failed")
                .hasRootCauseMessage("disk");

        InFlightFlush error = flush();
        error.writeEnded(1, null, new OutOfMemoryError("arrow"));
        assertThatThrownBy(error::rowsWritten).isInstanceOf(OutOfMemoryError.class);
    }

    @Test
    void aWaiterOnAnotherThreadSeesTheWriteEnd() throws Exception {
        InFlightFlush flush = flush();
        Thread waiter = Thread.currentThread();
        Thread writer = new Thread(() -> {
            // End the write only once the waiter is parked in await, so the wake-up is what is tested.
            Await.within(Duration.ofSeconds(30), "the waiter parked")
                    .until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
            flush.writeEnded(1, 7L, null);
        });
        writer.start();
        assertThat(flush.await(60_000)).isTrue();
        assertThat(flush.rowsWritten()).isEqualTo(7);
        writer.join();
    }

    @Test
    void releaseClosesEveryArrowBatchOfTheFlush() {
        InFlightFlush flush = flush();
        flush.writeEnded(1, 0L, null);
        flush.release();
        assertThat(closed).containsExactly("unified", "sorted");
    }

    private InFlightFlush flush() {
        List<AutoCloseable> arrow = List.of(() -> closed.add("unified"), () -> closed.add("sorted"));
        return new InFlightFlush(FlushTrigger.SIZE, System.nanoTime(), 100, 3,
                new FlushBatch(new Schema(List.of()), List.of(), 3), arrow, new OffsetLedger(), List.of(),
                new FlushPhases());
    }
}
