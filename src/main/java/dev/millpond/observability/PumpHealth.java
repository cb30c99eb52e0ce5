package dev.millpond.observability;

import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.Locale;

/**
 * What the probes know about the pump. The pump thread writes it; the HTTP threads only read it. Liveness is "a poll
 * returned recently" (480 s, the original's deadline) and "no write has been in flight past its deadline" (see
 * {@link #writeDeadline}); readiness additionally needs a constructed sink and assigned
 * partitions, so a pod never reports ready while it cannot write; for the same reason it is not ready
 * while the pump waits out a catalog or object-store outage, until a write succeeds again.
 */
@Singleton
public class PumpHealth {

    private static final Logger LOG = Logger.getLogger(PumpHealth.class);

    public static final double MAX_POLL_AGE_SECONDS = 480.0;

    private final long startNanos = System.nanoTime();
    private volatile long lastPollNanos = startNanos;
    private volatile long lastFlushNanos = -1;
    private volatile boolean sinkReady;
    private volatile boolean partitionsAssigned;
    private volatile boolean sinkUnavailable;
    /** When the write in flight started (its first attempt); -1 while none is. */
    private volatile long writeStartNanos = -1;
    /** The longest a write may be in flight, retries and outage waits included; null: not watched. */
    private volatile Duration writeDeadline;
    /** The write start already reported as hung, so it is logged once. */
    private volatile long reportedHungStart = -1;

    public void pollReturned() {
        lastPollNanos = System.nanoTime();
    }

    public void flushed() {
        lastFlushNanos = System.nanoTime();
    }

    /**
     * The pump thread is waiting out a sink that could not be reached at startup: it is busy, not stuck, so liveness
     * holds for as long as the outage budget lets it wait (which may be longer than the poll deadline).
     */
    public void waitingForSink() {
        lastPollNanos = System.nanoTime();
    }

    /** As {@link #waitingForSink()}, for a Kafka that could not be reached at startup. */
    public void waitingForKafka() {
        lastPollNanos = System.nanoTime();
    }

    public void sinkReady() {
        sinkReady = true;
    }

    /** A write failed because the catalog or the object store could not be reached. */
    public void sinkUnavailable() {
        sinkUnavailable = true;
    }

    /** A write succeeded. */
    public void sinkAvailable() {
        sinkUnavailable = false;
    }

    public void partitionsAssigned() {
        partitionsAssigned = true;
    }

    /**
     * Liveness also fails while a write has been in flight for longer than {@code deadline}: with overlapped writes
     * the pump keeps polling while the writer waits, so poll freshness alone never sees a write that hangs (a catalog
     * connection that stopped answering, a dependency that never replies).
     */
    public void writeDeadline(Duration deadline) {
        writeDeadline = deadline;
    }

    /** A flush's write (its whole retry ladder) started. */
    public void writeStarted() {
        writeStartNanos = System.nanoTime();
    }

    /** The write ended, landed or failed. */
    public void writeEnded() {
        writeStartNanos = -1;
    }

    /** How long the write in flight has been running; 0 with none. */
    public double secondsWriteInFlight() {
        long start = writeStartNanos;
        return start < 0 ? 0 : (System.nanoTime() - start) / 1e9;
    }

    /** Whether the write in flight has outlived its deadline; logged once per write. */
    public boolean writeHung() {
        long start = writeStartNanos;
        Duration deadline = writeDeadline;
        if (start < 0 || deadline == null || System.nanoTime() - start <= deadline.toNanos()) {
            return false;
        }
        if (reportedHungStart != start) {
            reportedHungStart = start;
            LOG.errorf("A write has been in flight for %.1fs, longer than a write may take (%ds: the outage budget"
                    + " plus the retry ladder's allowance); liveness fails so the pod is restarted. Nothing of it is"
                    + " committed: its records are consumed again after the restart", secondsWriteInFlight(),
                    deadline.toSeconds());
        }
        return true;
    }

    public double secondsSinceLastPoll() {
        return (System.nanoTime() - lastPollNanos) / 1e9;
    }

    public boolean alive() {
        return secondsSinceLastPoll() < MAX_POLL_AGE_SECONDS && !writeHung();
    }

    public boolean ready() {
        return sinkReady && !sinkUnavailable && partitionsAssigned && alive();
    }

    /** The original's probe body after its first word: {@code poll=<x.x>s ago flush=<y.y>s ago|never}. */
    public String describe() {
        long flush = lastFlushNanos;
        String flushText = flush < 0 ? "never"
                : String.format(Locale.ROOT, "%.1fs ago", (System.nanoTime() - flush) / 1e9);
        String text = String.format(Locale.ROOT, "poll=%.1fs ago flush=%s", secondsSinceLastPoll(), flushText);
        // Only past the deadline, a state the original never reports: its bodies stay as they were otherwise.
        return writeHung() ? text + String.format(Locale.ROOT, " write=%.1fs in flight", secondsWriteInFlight())
                : text;
    }

    public String readinessDetail() {
        if (!sinkReady) {
            return "sink not constructed";
        }
        if (!partitionsAssigned) {
            return "partitions not assigned";
        }
        if (sinkUnavailable) {
            return "sink unavailable";
        }
        return alive() ? "ready" : "poll stale";
    }
}
