package dev.millpond.kafka;

import dev.millpond.config.MillpondConfig;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.TestCertificateAuthority;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The pump's Kafka clients, configured through librdkafka-style {@code KAFKA_CONSUMER_*} variables exactly as an
 * operator would, against a real broker's SSL and SASL/PLAIN listeners. Topics are created and filled through the
 * broker's PLAINTEXT listener; everything the pump does goes through the secured one.
 */
@ServiceBacked
class SecuredListenersTest {

    private static final String USER = "millpond";
    private static final String PASSWORD = "pl@in \"pw\" \\ ok";

    private static Path certificates;
    private static TestCertificateAuthority ca;
    private static KafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        certificates = Files.createTempDirectory("millpond-certs-");
        ca = TestCertificateAuthority.create(certificates, "millpond-test-ca");
        broker = KafkaBroker.builder()
                .sslListener(ca.issueBrokerKeystore())
                .saslPlainListener(Map.of(USER, PASSWORD, "other", "other-pw"))
                .start();
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
        if (certificates != null) {
            try (var paths = Files.walk(certificates)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void sslWithThePemCaLocationConsumesAndCommits() {
        String topic = newTopic("ssl");
        MillpondConfig config = PumpEnvironment.load(broker.sslBootstrapServers(), topic, topic + "-group",
                "KAFKA_CONSUMER_SECURITY_PROTOCOL", "SSL",
                "KAFKA_CONSUMER_SSL_CA_LOCATION", ca.caPem().toString());

        assertRoundTrip(config);
    }

    @Test
    void sslWithAnUnrelatedCaFailsTheHandshake() throws Exception {
        Path otherDirectory = Files.createDirectory(certificates.resolve("other-ca"));
        TestCertificateAuthority other = TestCertificateAuthority.create(otherDirectory, "someone-else");
        String topic = newTopic("sslbad");
        MillpondConfig config = PumpEnvironment.load(broker.sslBootstrapServers(), topic, topic + "-group",
                "KAFKA_CONSUMER_SECURITY_PROTOCOL", "SSL",
                "KAFKA_CONSUMER_SSL_CA_LOCATION", other.caPem().toString());

        try (Admin admin = Admin.create(KafkaClients.adminProperties(config.kafka()))) {
            assertThatThrownBy(() -> PartitionAssignment.discover(admin, topic, 1, 0))
                    .hasCauseInstanceOf(SslAuthenticationException.class);
        }
    }

    @Test
    void saslPlainConsumesAndCommits() {
        String topic = newTopic("plain");
        MillpondConfig config = PumpEnvironment.load(broker.saslPlaintextBootstrapServers(), topic, topic + "-group",
                "KAFKA_CONSUMER_SECURITY_PROTOCOL", "SASL_PLAINTEXT",
                "KAFKA_CONSUMER_SASL_MECHANISMS", "PLAIN",
                "KAFKA_CONSUMER_SASL_USERNAME", USER,
                "KAFKA_CONSUMER_SASL_PASSWORD", PASSWORD);

        assertRoundTrip(config);
    }

    @Test
    void saslPlainWithAWrongPasswordFailsAuthentication() {
        String topic = newTopic("plainbad");
        MillpondConfig config = PumpEnvironment.load(broker.saslPlaintextBootstrapServers(), topic, topic + "-group",
                "KAFKA_CONSUMER_SECURITY_PROTOCOL", "SASL_PLAINTEXT",
                "KAFKA_CONSUMER_SASL_MECHANISMS", "PLAIN",
                "KAFKA_CONSUMER_SASL_USERNAME", USER,
                "KAFKA_CONSUMER_SASL_PASSWORD", "not-the-password");

        try (Admin admin = Admin.create(KafkaClients.adminProperties(config.kafka()));
             KafkaConsumer<byte[], byte[]> consumer = consumer(config)) {
            assertThatThrownBy(() -> PartitionAssignment.discover(admin, topic, 1, 0))
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
            assertThatThrownBy(() -> consumer.committed(Set.of(new TopicPartition(topic, 0)), Duration.ofSeconds(10)))
                    .isInstanceOf(SaslAuthenticationException.class);
        }
    }

    /** Two partitions of three records each: discover, assign, seek, poll all six, commit, read the commit back. */
    private static void assertRoundTrip(MillpondConfig config) {
        String topic = config.topic();
        broker.produce(topic, 0, values("a", "b", "c"));
        broker.produce(topic, 1, values("d", "e", "f"));
        try (Admin admin = Admin.create(KafkaClients.adminProperties(config.kafka()));
             KafkaConsumer<byte[], byte[]> consumer = consumer(config)) {
            PartitionAssignment assignment = PartitionAssignment.discover(admin, topic, config.replicaCount(),
                    config.ordinal());
            assertThat(assignment.partitions()).containsExactly(0, 1);
            consumer.assign(assignment.topicPartitions());
            MillpondMetrics metrics = new MillpondMetrics(new SimpleMeterRegistry(), config.pipelineLabel(),
                    config.brokerSource());
            StartPositions.apply(consumer, admin, assignment, Map.of(), java.util.Optional.empty(),
                    config.autoOffsetReset(), org.apache.kafka.common.IsolationLevel.READ_UNCOMMITTED, metrics,
                    new OffsetJumps(metrics));

            List<String> seen = new ArrayList<>();
            Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
            Await.within(Duration.ofSeconds(30), "six records").pollInterval(Duration.ofMillis(1)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    seen.add(new String(r.value(), StandardCharsets.UTF_8));
                    next.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                }
                return seen.size() >= 6;
            });
            consumer.commitSync(next);

            assertThat(seen).containsExactlyInAnyOrder("a", "b", "c", "d", "e", "f");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertThat(broker.committedOffsets(config.groupId(), topic)).isEqualTo(Map.of(0, 3L, 1, 3L));
    }

    private static KafkaConsumer<byte[], byte[]> consumer(MillpondConfig config) {
        return new KafkaConsumer<>(KafkaClients.consumerProperties(config.kafka(), config.consumeBatchSize()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static String newTopic(String prefix) {
        String topic = dev.millpond.testsupport.Services.uniqueName(prefix);
        broker.createTopic(topic, 2);
        return topic;
    }

    private static List<byte[]> values(String... values) {
        List<byte[]> out = new ArrayList<>();
        for (String v : values) {
            out.add(v.getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }
}
