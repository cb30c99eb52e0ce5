package dev.millpond.pump;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * librdkafka's {@code consume(num_messages=n)} with a different {@code n} per call. The Java client fixes
 * {@code max.poll.records} at construction, so records beyond this call's cap wait here for the next call, in the
 * order the consumer returned them (partition by partition).
 */
final class AdaptivePoller {

    /**
     * One call's records, and — on the call that handed out the last record of a consumer poll — the consumer's
     * position after that poll for each partition it moved. The position can be past the last record: the client
     * steps over transaction markers and, under {@code read_committed}, aborted records, and returns neither.
     */
    record Polled(List<ConsumerRecord<byte[], byte[]>> records, Map<Integer, Long> positions) {
    }

    private final Consumer<byte[], byte[]> consumer;
    /** The last consumer poll's records, one list per partition, in the consumer's order. */
    private List<List<ConsumerRecord<byte[], byte[]>>> polled = List.of();
    /** partition → its index in {@link #polled}. */
    private Map<Integer, Integer> indexOf = Map.of();
    /** The list being handed out, and its next record. */
    private int list;
    private int next;
    private Map<Integer, Long> leftoverPositions = Map.of();

    AdaptivePoller(Consumer<byte[], byte[]> consumer) {
        this.consumer = consumer;
    }

    Polled poll(int max, Duration timeout) {
        if (list >= polled.size()) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(timeout);
            List<List<ConsumerRecord<byte[], byte[]>>> lists = new ArrayList<>(records.partitions().size());
            Map<Integer, Integer> index = new HashMap<>();
            for (TopicPartition tp : records.partitions()) {
                index.put(tp.partition(), lists.size());
                lists.add(records.records(tp));
            }
            polled = lists;
            indexOf = index;
            list = 0;
            next = 0;
            Map<Integer, Long> positions = new TreeMap<>();
            records.nextOffsets().forEach((tp, offset) -> positions.put(tp.partition(), offset.offset()));
            leftoverPositions = positions;
        }
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>(Math.min(max, 1024));
        while (out.size() < max && list < polled.size()) {
            List<ConsumerRecord<byte[], byte[]>> records = polled.get(list);
            int take = Math.min(max - out.size(), records.size() - next);
            out.addAll(records.subList(next, next + take));
            next += take;
            if (next >= records.size()) {
                list++;
                next = 0;
            }
        }
        if (list < polled.size()) {
            return new Polled(out, Map.of());
        }
        Map<Integer, Long> positions = leftoverPositions;
        leftoverPositions = Map.of();
        return new Polled(out, positions);
    }

    /**
     * The Kafka timestamp of the partition's first record the consumer returned that no call handed out yet, or
     * {@link OffsetLedger#NO_RECORD}: the consumer's position is past it, so its lag no longer counts it.
     */
    long oldestNotHandedOut(int partition) {
        Integer i = indexOf.get(partition);
        if (i == null || i < list) {
            return OffsetLedger.NO_RECORD;
        }
        List<ConsumerRecord<byte[], byte[]>> records = polled.get(i);
        int from = i == list ? next : 0;
        return from < records.size() ? records.get(from).timestamp() : OffsetLedger.NO_RECORD;
    }
}
