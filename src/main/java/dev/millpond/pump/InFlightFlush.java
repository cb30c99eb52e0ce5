package dev.millpond.pump;

import dev.millpond.observability.FlushTrigger;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.RejectedRecord;
import org.apache.arrow.util.AutoCloseables;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One flush from the moment it leaves the pump's buffer until its offsets are committed: the rows and their Arrow
 * memory, the offsets and rejects it covers (its own ledger: records consumed after the hand-off belong to the next
 * flush), and the outcome of its write. The writer completes the outcome; everything else — the Kafka commit, the
 * metrics, closing the Arrow memory — is done by the pump thread once the outcome is known.
 */
final class InFlightFlush {

    final FlushTrigger trigger;
    final long startedNanos;
    final long bytes;
    final long records;
    final FlushBatch batch;
    final OffsetLedger ledger;
    final List<RejectedRecord> rejects;
    final FlushPhases phases;
    /** The unified and sorted roots {@link #batch} reads from; released only after the write is over. */
    private final List<AutoCloseable> arrow;
    private final CompletableFuture<Long> written = new CompletableFuture<>();
    private volatile long writeNanos;

    InFlightFlush(FlushTrigger trigger, long startedNanos, long bytes, long records, FlushBatch batch,
                  List<AutoCloseable> arrow, OffsetLedger ledger, List<RejectedRecord> rejects, FlushPhases phases) {
        this.trigger = trigger;
        this.startedNanos = startedNanos;
        this.bytes = bytes;
        this.records = records;
        this.batch = batch;
        this.arrow = arrow;
        this.ledger = ledger;
        this.rejects = rejects;
        this.phases = phases;
    }

    /** Called once, by whoever writes the flush: the ladder's outcome and how long it took. */
    void writeEnded(long nanos, Long rows, Throwable failure) {
        writeNanos = nanos;
        phases.write(nanos);
        if (failure == null) {
            written.complete(rows);
        } else {
            written.completeExceptionally(failure);
        }
    }

    boolean isDone() {
        return written.isDone();
    }

    /** Waits up to {@code millis} for the write to end; true when it has. */
    boolean await(long millis) {
        try {
            written.get(millis, TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return written.isDone();
        }
    }

    /**
     * The rows the sink accepted, once the write is over.
     *
     * @throws PumpFailure           the write failed for good
     * @throws WriteLadder.Abandoned a stop came while the sink was unavailable
     */
    long rowsWritten() {
        try {
            return written.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new PumpFailure("Write failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PumpFailure("Interrupted while waiting for a write", e);
        }
    }

    double writeSeconds() {
        return writeNanos / 1e9;
    }

    /** Releases the Arrow memory; only once the write is over (the writer reads these buffers until then). */
    void release() {
        try {
            AutoCloseables.close(arrow);
        } catch (Exception e) {
            throw new IllegalStateException("closing a flush's Arrow batches failed", e);
        }
    }
}
