package dev.millpond.pump;

import java.util.Locale;

/**
 * Where one flush cycle's time went, for its {@code Flush:} log line: poll, convert and stages add up over the poll
 * batches since the previous flush; unify, sort, write and commit are the flush's own steps. Owned by the pump thread.
 */
final class FlushPhases {

    private long pollNanos;
    private long convertNanos;
    private long stagesNanos;
    private long unifyNanos;
    private long sortNanos;
    private long writeNanos;
    private long commitNanos;

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

    /** {@code poll=0.52s convert=0.31s …}, then starts counting the next cycle. */
    String summaryAndReset() {
        String s = String.format(Locale.ROOT,
                "poll=%.2fs convert=%.2fs stages=%.2fs unify=%.2fs sort=%.2fs write=%.2fs commit=%.2fs",
                pollNanos / 1e9, convertNanos / 1e9, stagesNanos / 1e9, unifyNanos / 1e9, sortNanos / 1e9,
                writeNanos / 1e9, commitNanos / 1e9);
        pollNanos = convertNanos = stagesNanos = unifyNanos = sortNanos = writeNanos = commitNanos = 0;
        return s;
    }
}
