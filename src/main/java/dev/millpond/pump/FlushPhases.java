package dev.millpond.pump;

import java.util.Locale;

/**
 * Where one flush cycle's time went, for its {@code Flush:} log line: poll, convert and stages add up over the poll
 * batches since the previous flush; unify, sort, write and commit are the flush's own steps; wait is how long the pump
 * thread stood still for this flush's write (a paused consumer, nothing converted) before it could hand over the
 * next one. The pump thread owns the counters until {@link #handOff()} gives them to the flush being written.
 */
final class FlushPhases {

    private long pollNanos;
    private long convertNanos;
    private long stagesNanos;
    private long unifyNanos;
    private long sortNanos;
    private long writeNanos;
    private long commitNanos;
    private long waitNanos;

    void poll(long nanos) {
        pollNanos += nanos;
    }

    void convert(long nanos) {
        convertNanos += nanos;
    }

    void stages(long nanos) {
        stagesNanos += nanos;
    }

    void unify(long nanos) {
        unifyNanos += nanos;
    }

    void sort(long nanos) {
        sortNanos += nanos;
    }

    void write(long nanos) {
        writeNanos += nanos;
    }

    void commit(long nanos) {
        commitNanos += nanos;
    }

    void waited(long nanos) {
        waitNanos += nanos;
    }

    /** The counters so far, for the flush that leaves the pump now; this object starts counting the next cycle. */
    FlushPhases handOff() {
        FlushPhases mine = new FlushPhases();
        mine.pollNanos = pollNanos;
        mine.convertNanos = convertNanos;
        mine.stagesNanos = stagesNanos;
        mine.unifyNanos = unifyNanos;
        mine.sortNanos = sortNanos;
        mine.writeNanos = writeNanos;
        mine.commitNanos = commitNanos;
        mine.waitNanos = waitNanos;
        pollNanos = convertNanos = stagesNanos = unifyNanos = sortNanos = writeNanos = commitNanos = waitNanos = 0;
        return mine;
    }

    /** {@code poll=0.52s convert=0.31s … wait=0.00s}. */
    String summary() {
        return String.format(Locale.ROOT,
                "poll=%.2fs convert=%.2fs stages=%.2fs unify=%.2fs sort=%.2fs write=%.2fs commit=%.2fs wait=%.2fs",
                pollNanos / 1e9, convertNanos / 1e9, stagesNanos / 1e9, unifyNanos / 1e9, sortNanos / 1e9,
                writeNanos / 1e9, commitNanos / 1e9, waitNanos / 1e9);
    }
}
