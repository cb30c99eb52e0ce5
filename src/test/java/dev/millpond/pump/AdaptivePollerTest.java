package dev.millpond.pump;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-call cap over the client's fixed poll size, against Kafka's {@link MockConsumer}: generated arrivals and
 * caps, and every record comes out once, in order, never more than the cap per call, the consumer polled again only
 * when what it returned last is used up, and the consumer's positions reported only with the last of its records.
 */
class AdaptivePollerTest {

    private static final TopicPartition TP = new TopicPartition("t", 0);

    @Test
    void everyRecordComesOutOnceInOrderAtMostTheCapPerCallAndOnlyFromOneConsumerPollAtATime() {
        for (long seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            RecordingConsumer consumer = new RecordingConsumer(1 + random.nextInt(50));
            AdaptivePoller poller = new AdaptivePoller(consumer);
            long produced = 0;
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
            int leftoverBefore = 0;
            for (int call = 0; call < 60; call++) {
                for (int i = random.nextInt(3) == 0 ? random.nextInt(80) : 0; i > 0; i--) {
                    consumer.addRecord(new ConsumerRecord<>("t", 0, produced++, null, new byte[0]));
                }
                int max = 1 + random.nextInt(40);
                int pollsBefore = consumer.polls.size();

                AdaptivePoller.Polled result = poller.poll(max, Duration.ofMillis(1));
                List<ConsumerRecord<byte[], byte[]>> got = result.records();

                assertThat(got.size()).as("seed %d call %d", seed, call).isLessThanOrEqualTo(max);
                if (leftoverBefore > 0) {
                    assertThat(consumer.polls).as("records left over: no new poll (seed %d)", seed)
                            .hasSize(pollsBefore);
                    assertThat(got).hasSize(Math.min(max, leftoverBefore));
                    leftoverBefore -= got.size();
                } else {
                    assertThat(consumer.polls).as("nothing left over: one poll (seed %d)", seed)
                            .hasSize(pollsBefore + 1);
                    int polled = consumer.polls.get(pollsBefore).size();
                    assertThat(got).hasSize(Math.min(max, polled));
                    leftoverBefore = polled - got.size();
                }
                if (leftoverBefore > 0) {
                    assertThat(result.positions()).as("records of the poll still to come: no position yet (seed %d)",
                            seed).isEmpty();
                }
                out.addAll(got);
            }
            List<ConsumerRecord<byte[], byte[]>> fromConsumer = consumer.polls.stream().flatMap(List::stream).toList();
            assertThat(out).as("seed %d", seed)
                    .containsExactlyElementsOf(fromConsumer.subList(0, fromConsumer.size() - leftoverBefore));
            assertThat(out).extracting(ConsumerRecord::offset).isSorted().doesNotHaveDuplicates();
        }
    }

    /** Kafka's mock consumer on one partition, remembering what each of its polls returned. */
    private static final class RecordingConsumer extends MockConsumer<byte[], byte[]> {
        final List<List<ConsumerRecord<byte[], byte[]>>> polls = new ArrayList<>();

        RecordingConsumer(int maxPollRecords) {
            super("earliest");
            assign(List.of(TP));
            updateBeginningOffsets(Map.of(TP, 0L));
            setMaxPollRecords(maxPollRecords);
        }

        @Override
        public synchronized ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
            ConsumerRecords<byte[], byte[]> records = super.poll(timeout);
            List<ConsumerRecord<byte[], byte[]>> list = new ArrayList<>();
            records.forEach(list::add);
            polls.add(list);
            return records;
        }
    }
}
