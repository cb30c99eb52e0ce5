package dev.millpond.pump;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-call cap over the client's fixed poll size, against Kafka's {@link MockConsumer}: generated arrivals and
 * caps, and every record comes out once, in order, never more than the cap per call, the consumer polled again only
 * when what it returned last is used up, and the consumer's positions reported only with the last of its records; and
 * over several partitions, which record of each waits first to be handed out.
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

    /**
     * Over several partitions: after every call, each partition's first record the consumer returned and no call
     * handed out yet is the one the poller names (by its timestamp), and none once all of it was handed out.
     */
    @Test
    void theFirstRecordNotHandedOutOfEachPartitionIsKnown() {
        List<TopicPartition> partitions = List.of(TP, new TopicPartition("t", 1), new TopicPartition("t", 2));
        for (long seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            RecordingConsumer consumer = new RecordingConsumer(1 + random.nextInt(60), partitions);
            AdaptivePoller poller = new AdaptivePoller(consumer);
            long[] produced = new long[partitions.size()];
            // What the consumer returned and no call handed out yet, per partition, in order.
            List<ArrayDeque<ConsumerRecord<byte[], byte[]>>> waiting = new ArrayList<>();
            partitions.forEach(tp -> waiting.add(new ArrayDeque<>()));
            int handedOut = 0;
            for (int call = 0; call < 60; call++) {
                for (TopicPartition tp : partitions) {
                    for (int i = random.nextInt(3) == 0 ? random.nextInt(30) : 0; i > 0; i--) {
                        consumer.addRecord(new ConsumerRecord<>("t", tp.partition(), produced[tp.partition()]++,
                                random.nextLong(1L << 41), TimestampType.CREATE_TIME, 0, 0, null, new byte[0],
                                new RecordHeaders(), Optional.empty()));
                    }
                }
                int pollsBefore = consumer.polls.size();
                List<ConsumerRecord<byte[], byte[]>> got = poller.poll(1 + random.nextInt(40), Duration.ofMillis(1))
                        .records();
                if (consumer.polls.size() > pollsBefore) {
                    consumer.polls.get(pollsBefore).forEach(r -> waiting.get(r.partition()).addLast(r));
                }
                for (ConsumerRecord<byte[], byte[]> r : got) {
                    assertThat(waiting.get(r.partition()).pollFirst()).as("seed %d call %d", seed, call).isSameAs(r);
                    handedOut++;
                }
                for (TopicPartition tp : partitions) {
                    ConsumerRecord<byte[], byte[]> first = waiting.get(tp.partition()).peekFirst();
                    assertThat(poller.oldestNotHandedOut(tp.partition())).as("seed %d call %d partition %d", seed,
                            call, tp.partition()).isEqualTo(first == null ? OffsetLedger.NO_RECORD : first.timestamp());
                }
            }
            assertThat(handedOut).as("seed %d: records went through", seed).isPositive();
        }
    }

    /** Kafka's mock consumer, remembering what each of its polls returned. */
    private static final class RecordingConsumer extends MockConsumer<byte[], byte[]> {
        final List<List<ConsumerRecord<byte[], byte[]>>> polls = new ArrayList<>();

        RecordingConsumer(int maxPollRecords) {
            this(maxPollRecords, List.of(TP));
        }

        RecordingConsumer(int maxPollRecords, List<TopicPartition> partitions) {
            super("earliest");
            assign(partitions);
            Map<TopicPartition, Long> beginning = new HashMap<>();
            partitions.forEach(tp -> beginning.put(tp, 0L));
            updateBeginningOffsets(beginning);
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
