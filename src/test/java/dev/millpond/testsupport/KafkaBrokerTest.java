package dev.millpond.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

@ServiceBacked
class KafkaBrokerTest {

    private final KafkaBroker broker = Services.kafka();

    @Test
    void producedRecordsAreConsumedAndTheGroupCommitIsVisible() {
        String topic = Services.uniqueName("roundtrip");
        String group = Services.uniqueName("group");
        broker.createTopic(topic, 2);
        broker.produce(topic, 0, List.of(bytes("a"), bytes("b"), bytes("c")));
        List<Long> offsets = broker.produce(topic, 1, Arrays.asList(bytes("d"), null));

        assertThat(offsets).containsExactly(0L, 1L);
        List<String> consumed = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(broker.consumerConfig(group))) {
            consumer.subscribe(List.of(topic));
            Await.within(Duration.ofSeconds(30), "five records consumed").pollInterval(Duration.ofMillis(1)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    consumed.add(record.value() == null ? "<tombstone>" : new String(record.value(), StandardCharsets.UTF_8));
                }
                return consumed.size() >= 5;
            });
            consumer.commitSync();
        }

        assertThat(consumed).containsExactlyInAnyOrder("a", "b", "c", "d", "<tombstone>");
        assertThat(broker.committedOffsets(group, topic)).isEqualTo(Map.of(0, 3L, 1, 2L));
        assertThat(broker.endOffsets(topic)).isEqualTo(Map.of(0, 3L, 1, 2L));
    }

    @Test
    void offsetsCommittedThroughAdminAreReadBack() {
        String topic = Services.uniqueName("admincommit");
        String group = Services.uniqueName("group");
        broker.createTopic(topic, 3);
        broker.produceTombstones(topic, 2, 4);

        assertThat(broker.committedOffsets(group, topic)).isEmpty();
        broker.commitOffsets(group, topic, Map.of(0, 0L, 2, 3L));

        assertThat(broker.committedOffsets(group, topic)).isEqualTo(Map.of(0, 0L, 2, 3L));
        assertThat(broker.readAll(topic, 2)).hasSize(4).allSatisfy(r -> assertThat(r.value()).isNull());
    }

    @Test
    void deletingRecordsLeavesTheCommittedOffsetBelowTheLogStart() {
        String topic = Services.uniqueName("stale");
        String group = Services.uniqueName("group");
        broker.createTopic(topic, 1);
        broker.produce(topic, 0, List.of(bytes("0"), bytes("1"), bytes("2"), bytes("3"), bytes("4")));
        broker.commitOffsets(group, topic, Map.of(0, 1L));

        broker.deleteRecordsBefore(topic, 0, 4);

        long committed = broker.committedOffsets(group, topic).get(0);
        assertThat(broker.startOffsets(topic)).isEqualTo(Map.of(0, 4L));
        assertThat(committed).isLessThan(broker.startOffsets(topic).get(0));
        assertThat(broker.readAll(topic, 0)).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                .containsExactly("4");
        // A consumer without a reset policy must see the committed offset as out of range.
        Map<String, Object> strict = broker.consumerConfig(group);
        strict.put("auto.offset.reset", "none");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(strict)) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            OffsetOutOfRangeException outOfRange = Await.within(Duration.ofSeconds(30), "the offset out of range")
                    .pollInterval(Duration.ofMillis(1)).until(() -> {
                        try {
                            consumer.poll(Duration.ofMillis(200));
                            return null;
                        } catch (OffsetOutOfRangeException e) {
                            return e;
                        }
                    }, Objects::nonNull);
            assertThat(outOfRange.offsetOutOfRangePartitions()).containsEntry(tp, 1L);
        }
    }

    @Test
    void aRestartedBrokerKeepsItsAddressRecordsAndCommittedOffsets() {
        try (KafkaBroker own = KafkaBroker.start()) {
            String topic = Services.uniqueName("restart");
            String group = Services.uniqueName("group");
            own.createTopic(topic, 1);
            own.produce(topic, 0, List.of(bytes("before")));
            own.commitOffsets(group, topic, Map.of(0, 1L));
            String address = own.bootstrapServers();

            own.stop();
            assertThat(own.isRunning()).isFalse();
            own.restart();

            assertThat(own.bootstrapServers()).isEqualTo(address);
            own.produce(topic, 0, List.of(bytes("after")));
            assertThat(own.readAll(topic, 0)).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .containsExactly("before", "after");
            assertThat(own.committedOffsets(group, topic)).isEqualTo(Map.of(0, 1L));
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
