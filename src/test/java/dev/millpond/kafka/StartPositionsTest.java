package dev.millpond.kafka;

import dev.millpond.config.AutoOffsetReset;
import dev.millpond.config.MillpondConfig;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * At startup, after {@code assign}, on the real broker with the pump's consumer ({@code auto.offset.reset=none}): every
 * partition gets an explicit position; a committed offset that retention has overtaken is a reported jump (warning,
 * {@code millpond_offsets_skipped_total}) re-committed to the reset target; the lake's offset wins where Kafka has none;
 * the lag and committed-offset gauges are seeded for every assigned partition, and the first poll starts where they
 * say. Each topic has two partitions: partition 0 holds ten records, partition 1 stays empty.
 */
@ServiceBacked
class StartPositionsTest {

    private final KafkaBroker broker = Services.kafka();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<AutoCloseable> clients = new ArrayList<>();

    @AfterEach
    void closeClients() throws Exception {
        for (AutoCloseable c : clients) {
            c.close();
        }
    }

    @Test
    void aCommitBelowTheLogStartIsRecommittedToTheEarliestOffset() throws Exception {
        Pump pump = pumpOn(topicWithTenRecords(), AutoOffsetReset.EARLIEST);
        broker.commitOffsets(pump.group(), pump.topic(), Map.of(0, 2L));
        broker.deleteRecordsBefore(pump.topic(), 0, 6);

        Map<Integer, Long> positions = pump.start();

        assertThat(positions).isEqualTo(Map.of(0, 6L, 1, 0L));
        assertThat(broker.committedOffsets(pump.group(), pump.topic())).isEqualTo(Map.of(0, 6L));
        assertGauges(0, 4, 6);
        assertGauges(1, 0, 0);
        assertThat(skipped(0)).isEqualTo(4);
        assertThat(skipped(1)).as("present at 0 from startup").isZero();
        assertThat(pump.firstPolledOffsets()).startsWith(6L).hasSize(4);
    }

    @Test
    void aCommitBelowTheLogStartIsRecommittedToTheLatestOffset() throws Exception {
        Pump pump = pumpOn(topicWithTenRecords(), AutoOffsetReset.LATEST);
        broker.commitOffsets(pump.group(), pump.topic(), Map.of(0, 2L));
        broker.deleteRecordsBefore(pump.topic(), 0, 6);

        Map<Integer, Long> positions = pump.start();

        assertThat(positions).isEqualTo(Map.of(0, 10L, 1, 0L));
        assertThat(broker.committedOffsets(pump.group(), pump.topic())).isEqualTo(Map.of(0, 10L));
        assertGauges(0, 0, 10);
        assertThat(skipped(0)).as("the offsets jumped: 2..9, four deleted and four skipped by latest").isEqualTo(8);
        assertThat(pump.firstPolledOffsets()).isEmpty();
    }

    /** The group's offsets are gone (expired after a long stop, or deleted), the lake still knows where it was. */
    @Test
    void theLakesOffsetWinsOverLatestWhereKafkaHasNone() throws Exception {
        Pump pump = pumpOn(topicWithTenRecords(), AutoOffsetReset.LATEST);

        Map<Integer, Long> positions = pump.start(Map.of(0, 4L));

        assertThat(positions).isEqualTo(Map.of(0, 4L, 1, 0L));
        assertThat(broker.committedOffsets(pump.group(), pump.topic())).as("re-committed at once")
                .isEqualTo(Map.of(0, 4L));
        assertGauges(0, 6, 4);
        assertThat(pump.firstPolledOffsets()).containsExactly(4L, 5L, 6L, 7L, 8L, 9L);
    }

    @Test
    void aLakeOffsetBelowTheLogStartIsAJumpReportedLikeACommitsIs() throws Exception {
        Pump pump = pumpOn(topicWithTenRecords(), AutoOffsetReset.EARLIEST);
        broker.deleteRecordsBefore(pump.topic(), 0, 7);

        Map<Integer, Long> positions = pump.start(Map.of(0, 3L));

        assertThat(positions).containsEntry(0, 7L);
        assertThat(skipped(0)).isEqualTo(4);
        assertThat(pump.firstPolledOffsets()).containsExactly(7L, 8L, 9L);
    }

    /** A partition neither Kafka nor the lake knows, in a group that has offsets: it was added since the last run. */
    @Test
    void aPartitionAddedWhileThePipelineWasDownIsReadFromItsBeginningUnderLatest() throws Exception {
        Pump pump = pumpOn(topicWithTenRecords(), AutoOffsetReset.LATEST);
        broker.commitOffsets(pump.group(), pump.topic(), Map.of(1, 0L));

        Map<Integer, Long> positions = pump.start();

        assertThat(positions).isEqualTo(Map.of(0, 0L, 1, 0L));
        assertThat(pump.firstPolledOffsets()).hasSize(10);
    }

    @Test
    void aCommitInsideTheLogIsKeptAndResumedFrom() throws Exception {
        Pump pump = pumpOn(topicWithTenRecords(), AutoOffsetReset.LATEST);
        broker.commitOffsets(pump.group(), pump.topic(), Map.of(0, 7L));

        Map<Integer, Long> positions = pump.start();

        assertThat(positions).containsEntry(0, 7L);
        assertThat(broker.committedOffsets(pump.group(), pump.topic())).isEqualTo(Map.of(0, 7L));
        assertGauges(0, 3, 7);
        assertThat(pump.firstPolledOffsets()).containsExactly(7L, 8L, 9L);
    }

    @Test
    void aFreshGroupOnEarliestStartsAtTheLogStartAndCommitsNothingYet() throws Exception {
        String topic = topicWithTenRecords();
        broker.deleteRecordsBefore(topic, 0, 3);
        Pump pump = pumpOn(topic, AutoOffsetReset.EARLIEST);

        Map<Integer, Long> positions = pump.start();

        assertThat(positions).isEqualTo(Map.of(0, 3L, 1, 0L));
        assertThat(broker.committedOffsets(pump.group(), topic)).isEmpty();
        assertGauges(0, 7, 3);
        assertThat(pump.firstPolledOffsets()).containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L);
    }

    @Test
    void aFreshGroupOnLatestSkipsTheBacklogAndReadsOnlyNewRecords() throws Exception {
        Pump pump = pumpOn(topicWithTenRecords(), AutoOffsetReset.LATEST);

        Map<Integer, Long> positions = pump.start();

        assertThat(positions).isEqualTo(Map.of(0, 10L, 1, 0L));
        assertThat(broker.committedOffsets(pump.group(), pump.topic())).isEmpty();
        assertGauges(0, 0, 10);
        assertThat(pump.firstPolledOffsets()).isEmpty();
        broker.produce(pump.topic(), 0, List.of(bytes("new")));
        assertThat(pump.polledOffsets(1)).containsExactly(10L);
    }

    private String topicWithTenRecords() {
        String topic = Services.uniqueName("startup");
        broker.createTopic(topic, 2);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            values.add(bytes("{\"i\":" + i + "}"));
        }
        broker.produce(topic, 0, values);
        return topic;
    }

    private Pump pumpOn(String topic, AutoOffsetReset reset) {
        MillpondConfig config = PumpEnvironment.load(broker.bootstrapServers(), topic, topic + "-group",
                "KAFKA_AUTO_OFFSET_RESET", reset.kafkaValue());
        Admin admin = Admin.create(KafkaClients.adminProperties(config.kafka()));
        clients.add(admin);
        java.util.Properties properties = KafkaClients.consumerProperties(config.kafka(), config.consumeBatchSize());
        properties.setProperty("auto.offset.reset", OutOfRangeResets.CONSUMER_POLICY); // as the pump's
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        clients.add(0, consumer);
        return new Pump(config, admin, consumer,
                new MillpondMetrics(registry, config.pipelineLabel(), config.brokerSource()));
    }

    private void assertGauges(int partition, long lag, long lastCommitted) {
        assertThat(gauge("millpond.consumer.lag", partition)).as("lag of partition %d", partition).isEqualTo(lag);
        assertThat(gauge("millpond.last.committed.offset", partition))
                .as("last committed offset of partition %d", partition).isEqualTo(lastCommitted);
    }

    private double skipped(int partition) {
        return registry.get("millpond.offsets.skipped").tag("partition", Integer.toString(partition))
                .tag("reason", "out_of_range").counter().count();
    }

    private double gauge(String name, int partition) {
        return registry.get(name).tag("partition", Integer.toString(partition)).gauge().value();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The pump's startup sequence (discover, assign, start positions) and its first polls. */
    private record Pump(MillpondConfig config, Admin admin, KafkaConsumer<byte[], byte[]> consumer,
                        MillpondMetrics metrics) {

        String topic() {
            return config.topic();
        }

        String group() {
            return config.groupId();
        }

        Map<Integer, Long> start() throws Exception {
            return start(Map.of());
        }

        /** @param lake the offsets the lake recorded */
        Map<Integer, Long> start(Map<Integer, Long> lake) throws Exception {
            PartitionAssignment assignment = PartitionAssignment.discover(admin, topic(), 1, 0);
            consumer.assign(assignment.topicPartitions());
            Map<Integer, Long> positions = new java.util.TreeMap<>();
            StartPositions.apply(consumer, admin, assignment, lake, java.util.Optional.empty(),
                    config.autoOffsetReset(), org.apache.kafka.common.IsolationLevel.READ_UNCOMMITTED, metrics,
                    new OffsetJumps(metrics)).forEach(d -> positions.put(d.partition(), d.offset()));
            return positions;
        }

        /** Offsets the polls return until the consumer's position reaches the log end: what the pump reads first. */
        List<Long> firstPolledOffsets() {
            List<Long> offsets = new ArrayList<>();
            Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment());
            // Each check polls once (the poll is the wait), so no interval between checks.
            Await.within(Duration.ofSeconds(30), "reading to the log end " + end).pollInterval(Duration.ofMillis(1))
                    .until(() -> {
                        if (end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue())) {
                            return true;
                        }
                        consumer.poll(Duration.ofMillis(200)).forEach(r -> offsets.add(r.offset()));
                        return false;
                    });
            return offsets;
        }

        /** Polls until {@code count} records arrived. */
        List<Long> polledOffsets(int count) {
            List<Long> offsets = new ArrayList<>();
            Await.within(Duration.ofSeconds(30), count + " records polled").pollInterval(Duration.ofMillis(1))
                    .until(() -> {
                        consumer.poll(Duration.ofMillis(200)).forEach(r -> offsets.add(r.offset()));
                        return offsets.size() >= count;
                    });
            return offsets;
        }
    }
}
