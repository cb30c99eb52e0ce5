package dev.millpond.observability;

import jakarta.inject.Singleton;

import java.util.Locale;

/**
 * What the probes know about the pump. The pump thread writes it; the HTTP threads only read it. Liveness is "a poll
 * returned recently" (480 s, the original's deadline); readiness additionally needs a constructed sink and assigned
 * partitions, so a pod never reports ready while it cannot write; for the same reason it is not ready
 * while the pump waits out a catalog or object-store outage, until a write succeeds again.
 */
@Singleton
public class PumpHealth {

    public static final double MAX_POLL_AGE_SECONDS = 480.0;

    private final long startNanos = System.nanoTime();
    private volatile long lastPollNanos = startNanos;
    private volatile long lastFlushNanos = -1;
    private volatile boolean sinkReady;
    private volatile boolean partitionsAssigned;
    private volatile boolean sinkUnavailable;

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

    public double secondsSinceLastPoll() {
        return (System.nanoTime() - lastPollNanos) / 1e9;
    }

    public boolean alive() {
        return secondsSinceLastPoll() < MAX_POLL_AGE_SECONDS;
    }

    public boolean ready() {
        return sinkReady && !sinkUnavailable && partitionsAssigned && alive();
    }

    /** The original's probe body after its first word: {@code poll=<x.x>s ago flush=<y.y>s ago|never}. */
    public String describe() {
        long flush = lastFlushNanos;
        String flushText = flush < 0 ? "never"
                : String.format(Locale.ROOT, "%.1fs ago", (System.nanoTime() - flush) / 1e9);
        return String.format(Locale.ROOT, "poll=%.1fs ago flush=%s", secondsSinceLastPoll(), flushText);
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
