package dev.millpond.pump;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * librdkafka's {@code consume(num_messages=n)} with a different {@code n} per call. The Java client fixes
 * {@code max.poll.records} at construction, so records beyond this call's cap wait here for the next call.
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
    private Iterator<ConsumerRecord<byte[], byte[]>> leftover = Collections.emptyIterator();
    private Map<Integer, Long> leftoverPositions = Map.of();

    AdaptivePoller(Consumer<byte[], byte[]> consumer) {
        this.consumer = consumer;
    }

    Polled poll(int max, Duration timeout) {
        if (!leftover.hasNext()) {
            ConsumerRecords<byte[], byte[]> polled = consumer.poll(timeout);
            leftover = polled.iterator();
            Map<Integer, Long> positions = new TreeMap<>();
            polled.nextOffsets().forEach((tp, next) -> positions.put(tp.partition(), next.offset()));
            leftoverPositions = positions;
        }
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>(Math.min(max, 1024));
        while (out.size() < max && leftover.hasNext()) {
            out.add(leftover.next());
        }
        if (leftover.hasNext()) {
            return new Polled(out, Map.of());
        }
        Map<Integer, Long> positions = leftoverPositions;
        leftoverPositions = Map.of();
        return new Polled(out, positions);
    }
}
