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

    /**
     * Whether the sink stores {@link FlushBatch#rejects()} in the same commit as the rows. When false the pump does
     * not collect rejects: they are counted and dropped.
     */
    default boolean keepsRejects() {
        return false;
    }

    /** The destination table's column names as the sink last saw them, so the pump can bound the table's width. */
    default java.util.List<String> liveColumns() {
        return java.util.List.of();
    }

    /** Whether a payload key of this name can ever become a column (keys the sink drops by name cannot). */
    default boolean becomesColumn(String name) {
        return true;
    }

    @Override
    void close();
}
