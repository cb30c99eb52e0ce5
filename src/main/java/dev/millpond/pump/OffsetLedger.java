package dev.millpond.pump;

import dev.millpond.sinks.OffsetRange;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The offsets handled since the last commit, per partition: every record that was written or deliberately skipped
 * (unparseable, filtered out, tombstone), so lag cannot grow on a fully-filtered partition (docs/decisions.md,
 * "Offsets advance for every record handled by design"); and how far the consumer stepped past them over offsets
 * that hold no record it returns (transaction markers, aborted records), so the commit covers those too and an idle
 * transactional partition shows no lag (docs/transactions.md).
 */
final class OffsetLedger {

    /** No record of the partition is in this ledger. */
    static final long NO_RECORD = Long.MIN_VALUE;

    private static final int FIRST = 0;
    private static final int LAST = 1;
    private static final int FIRST_TIMESTAMP = 2;
    private static final int LAST_TIMESTAMP = 3;

    /**
     * partition → {first, last} offsets handled since the last commit, and the Kafka timestamps of those two records
     * (how late the partition's records land: the oldest not landed, the newest landed).
     */
    private final Map<Integer, long[]> ranges = new TreeMap<>();
    /** partition → the consumer's position after the records handled, where the consumer reported it. */
    private final Map<Integer, Long> positions = new TreeMap<>();

    /** @param timestamp the record's Kafka timestamp (epoch ms, negative when it carries none) */
    void handled(int partition, long offset, long timestamp) {
        long[] range = ranges.get(partition);
        if (range == null) {
            ranges.put(partition, new long[]{offset, offset, timestamp, timestamp});
            return;
        }
        if (offset < range[FIRST]) {
            range[FIRST] = offset;
            range[FIRST_TIMESTAMP] = timestamp;
        }
        if (offset > range[LAST]) {
            range[LAST] = offset;
            range[LAST_TIMESTAMP] = timestamp;
        }
    }

    /** The Kafka timestamp of the partition's first record handled here, or {@link #NO_RECORD}. */
    long oldestTimestamp(int partition) {
        long[] range = ranges.get(partition);
        return range == null ? NO_RECORD : range[FIRST_TIMESTAMP];
    }

    /** partition → the Kafka timestamp of its last record handled here (partitions with records only). */
    Map<Integer, Long> newestTimestamps() {
        Map<Integer, Long> newest = new TreeMap<>();
        ranges.forEach((p, r) -> newest.put(p, r[LAST_TIMESTAMP]));
        return newest;
    }

    /**
     * The consumer's position after every record handled so far: what lies between the last record handled and it
     * was stepped over by the client, not skipped by us.
     */
    void reached(int partition, long position) {
        long[] range = ranges.get(partition);
        if (range != null && position <= range[LAST] + 1) {
            return;
        }
        positions.merge(partition, position, Math::max);
    }

    boolean isEmpty() {
        return ranges.isEmpty() && positions.isEmpty();
    }

    /** The next offset to consume per partition: past the last handled record and whatever was stepped over. */
    Map<Integer, Long> nextOffsets() {
        Map<Integer, Long> next = new TreeMap<>(positions);
        ranges.forEach((p, r) -> next.merge(p, r[LAST] + 1, Math::max));
        return Collections.unmodifiableMap(next);
    }

    /**
     * What the next flush covers, per partition in partition order, for the sink to record with the rows: the
     * records handled, first to last. Offsets stepped over are not in it: they carry no row, and a rebuilt flush
     * (which may not see the same positions) must name the same ranges.
     *
     * @param topicId the topic's Kafka id, recorded with the ranges; empty to name them by topic name alone
     */
    List<OffsetRange> ranges(String topic, Optional<String> topicId) {
        List<OffsetRange> list = new ArrayList<>(ranges.size());
        ranges.forEach((p, r) -> list.add(new OffsetRange(topic, p, r[FIRST], r[LAST], topicId)));
        return list;
    }

    List<OffsetRange> ranges(String topic) {
        return ranges(topic, Optional.empty());
    }

    Map<TopicPartition, OffsetAndMetadata> commitRequest(String topic) {
        Map<TopicPartition, OffsetAndMetadata> request = new HashMap<>();
        nextOffsets().forEach((p, next) -> request.put(new TopicPartition(topic, p), new OffsetAndMetadata(next)));
        return request;
    }

    void clear() {
        ranges.clear();
        positions.clear();
    }

    /** Moves everything handled so far into a ledger of its own (a flush's), leaving this one empty for the next. */
    OffsetLedger handOff() {
        OffsetLedger flushed = new OffsetLedger();
        flushed.ranges.putAll(ranges);
        flushed.positions.putAll(positions);
        clear();
        return flushed;
    }
}
