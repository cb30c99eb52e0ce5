package dev.millpond.pump;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * librdkafka's {@code consume(num_messages=n)} with a different {@code n} per call. The Java client fixes
 * {@code max.poll.records} at construction, so records beyond this call's cap wait here for the next call.
 */
final class AdaptivePoller {

    private final Consumer<byte[], byte[]> consumer;
    private Iterator<ConsumerRecord<byte[], byte[]>> leftover = java.util.Collections.emptyIterator();

    AdaptivePoller(Consumer<byte[], byte[]> consumer) {
        this.consumer = consumer;
    }

    List<ConsumerRecord<byte[], byte[]>> poll(int max, Duration timeout) {
        if (!leftover.hasNext()) {
            ConsumerRecords<byte[], byte[]> polled = consumer.poll(timeout);
            leftover = polled.iterator();
        }
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>(Math.min(max, 1024));
        while (out.size() < max && leftover.hasNext()) {
            out.add(leftover.next());
        }
        return out;
    }
}
