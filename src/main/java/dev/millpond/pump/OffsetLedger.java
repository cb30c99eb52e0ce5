package dev.millpond.pump;

import dev.millpond.sinks.OffsetRange;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The offsets handled since the last commit, per partition: every record that was written or deliberately skipped
 * (unparseable, filtered out, tombstone), so lag cannot grow on a fully-filtered partition (docs/decisions.md,
 * "Offsets advance for every record handled by design").
 */
final class OffsetLedger {

    /** partition → {first, last} offsets handled since the last commit. */
    private final Map<Integer, long[]> ranges = new TreeMap<>();

    void handled(int partition, long offset) {
        long[] range = ranges.get(partition);
        if (range == null) {
            ranges.put(partition, new long[]{offset, offset});
        } else {
            range[0] = Math.min(range[0], offset);
            range[1] = Math.max(range[1], offset);
        }
    }

    boolean isEmpty() {
        return ranges.isEmpty();
    }

    /** The next offset to consume per partition (last handled + 1). */
    Map<Integer, Long> nextOffsets() {
        Map<Integer, Long> next = new TreeMap<>();
        ranges.forEach((p, r) -> next.put(p, r[1] + 1));
        return Collections.unmodifiableMap(next);
    }

    /** What the next flush covers, per partition in partition order, for the sink to record with the rows. */
    List<OffsetRange> ranges(String topic) {
        List<OffsetRange> list = new ArrayList<>(ranges.size());
        ranges.forEach((p, r) -> list.add(new OffsetRange(topic, p, r[0], r[1])));
        return list;
    }

    Map<TopicPartition, OffsetAndMetadata> commitRequest(String topic) {
        Map<TopicPartition, OffsetAndMetadata> request = new java.util.HashMap<>();
        ranges.forEach((p, r) -> request.put(new TopicPartition(topic, p), new OffsetAndMetadata(r[1] + 1)));
        return request;
    }

    void clear() {
        ranges.clear();
    }

    /** Moves everything handled so far into a ledger of its own (a flush's), leaving this one empty for the next. */
    OffsetLedger handOff() {
        OffsetLedger flushed = new OffsetLedger();
        flushed.ranges.putAll(ranges);
        ranges.clear();
        return flushed;
    }
}
