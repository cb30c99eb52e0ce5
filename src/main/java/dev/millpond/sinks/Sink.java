package dev.millpond.sinks;

import java.util.Map;
import java.util.Optional;

/**
 * A lake destination, as the pump sees it. The contract:
 *
 * <ul>
 *   <li>{@link #recordedOffsets} is asked once at startup, before the first poll: where the lake says each partition
 *       resumes. Each flush's {@link OffsetRange}s carry the topic's Kafka id, for the sink to record or name the
 *       flush by.</li>
 *   <li>{@link #write} is called with one flush worth of rows; the pump commits Kafka offsets only after it returns.
 *       A thrown exception means nothing may be committed, and the pump asks {@link #classify} what to do next.</li>
 *   <li>A failed flush is written again as the same {@link FlushBatch} with the next attempt number. From attempt 2
 *       on the sink must assume that another writer may have changed the table and that the previous attempt may
 *       have landed after all (its reply was lost), so it re-reads what it cached and does not land the rows
 *       twice.</li>
 * </ul>
 *
 * Not thread-safe, but used by two threads in turn: {@link #write} and {@link #classify} run on the pump's writer
 * thread (one write at a time), everything else on the pump thread — {@link #liveColumns} only while no write is in
 * flight, and {@link #becomesColumn}, {@link #keepsRejects} and {@link #columnsRefusingNul} at any time, so those must
 * not depend on state a write changes.
 */
public interface Sink extends AutoCloseable {

    /**
     * Per partition of {@code topic}, the next offset after the last record that a flush recorded in the lake, or
     * empty when this sink does not record offsets (then Kafka's committed offsets alone decide where to resume). A
     * partition with no recorded offset is absent from the map.
     */
    Optional<Map<Integer, Long>> recordedOffsets(String topic) throws Exception;

    /**
     * As {@link #recordedOffsets(String)}, for the topic whose Kafka id is {@code topicId}: what the lake recorded
     * under another id belongs to a topic of the same name that was deleted since, and is reported as such instead of
     * being resumed from. A sink that records no topic ids takes every offset for the live topic's.
     */
    default Optional<RecordedOffsets> recordedOffsets(String topic, String topicId) throws Exception {
        return recordedOffsets(topic).map(RecordedOffsets::of);
    }

    /**
     * Writes every row of the batch in one lake commit and returns the number of rows the lake accepted.
     *
     * @param attempt 1 for the first time this flush is written, then 2, 3, … for each retry of the same flush
     */
    long write(FlushBatch batch, int attempt) throws Exception;

    /** Writes a flush for the first time: {@code write(batch, 1)}. */
    default long write(FlushBatch batch) throws Exception {
        return write(batch, 1);
    }

    /**
     * What a failure thrown by {@link #write} means, decided here because only the sink understands its
     * dependencies' errors. The pump's retry ladder reads nothing but this verdict.
     */
    WriteFailure classify(Throwable failure);

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

    /**
     * The columns (any case) whose text values must not hold the character U+0000, because the sink cannot store it
     * there; the pump keeps such records as rejects. Fixed for the sink's life, like {@link #becomesColumn}.
     */
    default java.util.Set<String> columnsRefusingNul() {
        return java.util.Set.of();
    }

    /** Whether a payload key of this name can ever become a column (keys the sink drops by name cannot). */
    default boolean becomesColumn(String name) {
        return true;
    }

    @Override
    void close();
}
