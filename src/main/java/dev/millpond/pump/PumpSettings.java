package dev.millpond.pump;

/** The loop's knobs, already validated by the config package. */
public record PumpSettings(String topic, long flushSizeBytes, long flushIntervalMs, int consumeBatchSize) {

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
