package dev.millpond.sinks;

import dev.millpond.observability.ErrorType;

/**
 * A lake destination. The pump calls {@link #write} with one flush worth of rows and commits Kafka offsets only after
 * it returns; a thrown exception means nothing may be committed.
 */
public interface Sink extends AutoCloseable {

    /** Writes every row of the batch in one lake commit and returns the number of rows the lake accepted. */
    long write(FlushBatch batch) throws Exception;

    /** Forgets cached table and schema state so the next attempt re-reads the catalog (another pod may have changed it). */
    void resetCaches();

    /** The {@code millpond_errors_total{type}} label for a failed write, decided where the failure is understood. */
    ErrorType classify(Throwable failure);

    @Override
    void close();
}
