package dev.millpond.pump;

/**
 * The loop's knobs, already validated by the config package.
 *
 * @param pauseAfterLakeCommitMs test-only (MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS): sleep between the lake write and
 *                               the Kafka offset commit, so a chaos test can SIGKILL the process in exactly that window
 * @param rejectMaxValueBytes    how much of a rejected record's value is kept (MILLPOND_REJECTS_MAX_VALUE_BYTES)
 * @param pendingMemoryBytes     the memory budget's bound on the pending batches' real Arrow allocation: reaching it
 *                               fires a size flush whatever FLUSH_SIZE says, so the pod fits its memory limit
 * @param overlapWrites          MILLPOND_OVERLAP_WRITES: write flush N on a writer thread while flush N+1 is consumed
 *                               (the memory budget then counts two flushes)
 * @param pendingRejectBytes     the memory budget's bound on the rejects one flush holds: they sit on the heap (not in
 *                               Arrow memory), whole, so reaching it fires a size flush long before FLUSH_SIZE would
 */
public record PumpSettings(String topic, long flushSizeBytes, long flushIntervalMs, int consumeBatchSize,
                           long pauseAfterLakeCommitMs, int rejectMaxValueBytes, long pendingMemoryBytes,
                           boolean overlapWrites, long pendingRejectBytes) {

    static final int MIN_BATCH = 10;

    /** Adaptive backpressure: consume less the fuller the buffer is, never fewer than 10 messages. */
    int batchSize(long pendingBytes) {
        if (flushSizeBytes <= 0) {
            return Math.max(MIN_BATCH, consumeBatchSize);
        }
        double fullness = (double) pendingBytes / flushSizeBytes;
        return Math.max(MIN_BATCH, (int) (consumeBatchSize * (1.0 - fullness)));
    }
}
