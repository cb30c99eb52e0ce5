package dev.millpond.pump;

import org.jboss.logging.Logger;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs a flush's write ladder, either on the pump thread ({@link #inline}: the pump stands still until the flush
 * landed, as the original does) or on one writer thread of its own ({@link #overlapped}: the pump consumes and
 * converts the next flush meanwhile, roughly halving a cycle when writing and converting take as long as each other).
 *
 * <p>The writer thread touches nothing but the sink (through the ladder), the metrics and the health flags: the Kafka
 * consumer is not thread-safe and stays the pump thread's, which also commits the offsets once it sees the write
 * ended. So during an outage the writer only sleeps between attempts; keeping the consumer polled (the liveness rule)
 * is the pump thread's job. At most one write runs at a time: the pump hands over the next flush only after it saw the
 * previous one end.
 */
final class FlushWriter implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(FlushWriter.class);

    private final WriteLadder ladder;
    private final WriteLadder.OutageWait inlineWait;
    private final ExecutorService thread;
    private final CountDownLatch stop = new CountDownLatch(1);

    private FlushWriter(WriteLadder ladder, WriteLadder.OutageWait inlineWait, ExecutorService thread) {
        this.ladder = ladder;
        this.inlineWait = inlineWait;
        this.thread = thread;
    }

    /** Writes on the caller's thread; {@code outageWait} keeps the consumer alive while the sink is unavailable. */
    static FlushWriter inline(WriteLadder ladder, WriteLadder.OutageWait outageWait) {
        return new FlushWriter(ladder, outageWait, null);
    }

    /** Writes on one daemon thread ({@code millpond-writer}), so a write hung in native code never blocks an exit. */
    static FlushWriter overlapped(WriteLadder ladder) {
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "millpond-writer");
            t.setDaemon(true);
            return t;
        });
        return new FlushWriter(ladder, null, thread);
    }

    boolean overlaps() {
        return thread != null;
    }

    /**
     * Starts writing {@code flush}. Inline, it has ended when this returns; overlapped, it ends on the writer thread
     * and {@link InFlightFlush#isDone()} says when.
     */
    void start(InFlightFlush flush) {
        if (thread == null) {
            write(flush, inlineWait);
            return;
        }
        try {
            thread.execute(() -> write(flush, this::sleepUnlessStopped));
        } catch (RejectedExecutionException e) {
            flush.writeEnded(0, null, new PumpFailure("The writer was already shut down", e));
        }
    }

    private void write(InFlightFlush flush, WriteLadder.OutageWait outageWait) {
        long start = System.nanoTime();
        try {
            long rows = ladder.write(flush.batch, outageWait);
            flush.writeEnded(System.nanoTime() - start, rows, null);
        } catch (Throwable t) {
            flush.writeEnded(System.nanoTime() - start, null, t);
        }
    }

    /** The writer thread's wait during an outage: a stop request ends it at once (and the flush is abandoned). */
    private boolean sleepUnlessStopped(double seconds) {
        try {
            return !stop.await((long) (seconds * 1e9), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A stop was requested: an outage wait in progress, or a later one, gives up. Safe from any thread. */
    void requestStop() {
        stop.countDown();
    }

    /**
     * Ends the writer thread. A write still running (a flush being discarded after a failure elsewhere) is given
     * {@code graceMillis} to end; the caller may release its memory only if this returns true.
     */
    boolean shutDown(InFlightFlush running, long graceMillis) {
        requestStop();
        if (thread == null) {
            return true;
        }
        thread.shutdown();
        if (running == null || running.await(graceMillis)) {
            return true;
        }
        LOG.warnf("A write still runs after %d ms; its Arrow memory is left to the process exit", graceMillis);
        return false;
    }

    @Override
    public void close() {
        shutDown(null, 0);
    }
}
