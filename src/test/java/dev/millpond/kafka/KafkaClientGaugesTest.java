package dev.millpond.kafka;

import dev.millpond.config.MillpondConfig;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

@ServiceBacked
class KafkaClientGaugesTest {

    private final KafkaBroker broker = Services.kafka();

    @Test
    void brokerRttAverageReachesTheScrapeInSecondsUnderTheLibrdkafkaBrokerName() throws Exception {
        String topic = Services.uniqueName("rtt");
        broker.createTopic(topic, 1);
        broker.produce(topic, 0, List.of("{\"a\":1}".getBytes(StandardCharsets.UTF_8)));
        MillpondConfig config = PumpEnvironment.load(broker.bootstrapServers(), topic, topic + "-group",
                "STATS_INTERVAL_MS", "100");
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        MillpondMetrics metrics = new MillpondMetrics(registry, config.pipelineLabel(), config.brokerSource());

        long started = System.nanoTime();
        try (Admin admin = Admin.create(KafkaClients.adminProperties(config.kafka()));
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                     KafkaClients.consumerProperties(config.kafka(), config.consumeBatchSize()),
                     new ByteArrayDeserializer(), new ByteArrayDeserializer());
             KafkaClientGauges gauges = new KafkaClientGauges(consumer::metrics, admin, "PLAINTEXT", metrics)
                     .start(config.statsIntervalMs())) {
            consumer.assign(PartitionAssignment.discover(admin, topic, 1, 0).topicPartitions());
            String series = "millpond_rdkafka_broker_rtt_avg_seconds{broker=\"" + broker.bootstrapServers() + "/1\","
                    + "broker_source=\"\",pipeline=\"" + config.pipelineLabel() + "\"";
            // The text format may close the label set with a trailing comma.
            Pattern sample = Pattern.compile(Pattern.quote(series) + ",?} (\\S+)");
            // Polls send Fetch requests; the gauge thread registers the broker after the first response.
            String found;
            try {
                found = Await.within(Duration.ofSeconds(30), series).pollInterval(Duration.ofMillis(1)).until(() -> {
                    consumer.poll(Duration.ofMillis(100));
                    Matcher m = sample.matcher(registry.scrape());
                    return m.find() ? m.group(1) : null;
                }, Objects::nonNull);
            } catch (ConditionTimeoutException e) {
                throw new AssertionError(String.format("scrape contains %s}; scrape has %s; the consumer's node"
                        + " metrics: %s", series, rdkafkaLines(registry.scrape()), nodeMetrics(consumer)), e);
            }
            double seconds = Double.parseDouble(found);
            // Seconds, not the client's milliseconds: an average round trip of the fetches sent since the consumer was
            // made is no longer than that whole time (a bound the machine's load can only widen).
            assertThat(seconds).isGreaterThan(0).isLessThanOrEqualTo((System.nanoTime() - started) / 1e9);
            assertThat(registry.scrape())
                    .doesNotContain("millpond_rdkafka_broker_rtt_p99_seconds")
                    .doesNotContain("millpond_rdkafka_replyq")
                    .doesNotContain("millpond_rdkafka_msg_cnt")
                    .doesNotContain("millpond_rdkafka_msg_size");
        }
    }

    @Test
    void brokersAreNamedAsLibrdkafkaNamesThem() {
        assertThat(KafkaClientGauges.librdkafkaBrokerName("PLAINTEXT", "b1", 9092, 1)).isEqualTo("b1:9092/1");
        assertThat(KafkaClientGauges.librdkafkaBrokerName(null, "b1", 9092, 1)).isEqualTo("b1:9092/1");
        assertThat(KafkaClientGauges.librdkafkaBrokerName("SASL_SSL", "b-2.msk", 9098, 2))
                .isEqualTo("sasl_ssl://b-2.msk:9098/2");
        assertThat(KafkaClientGauges.librdkafkaBrokerName("SSL", "b3", 9093, 3)).isEqualTo("ssl://b3:9093/3");
    }

    @Test
    void onlyPerBrokerRequestLatencyOfRealNodesIsPicked() {
        assertThat(KafkaClientGauges.nodeId(name("consumer-node-metrics", "request-latency-avg", "node-3")))
                .isEqualTo(3);
        // Bootstrap connections carry negative ids; librdkafka names those ".../bootstrap" and reports no rtt.
        assertThat(KafkaClientGauges.nodeId(name("consumer-node-metrics", "request-latency-avg", "node--1"))).isNull();
        assertThat(KafkaClientGauges.nodeId(name("consumer-node-metrics", "request-latency-max", "node-3"))).isNull();
        assertThat(KafkaClientGauges.nodeId(name("consumer-metrics", "request-latency-avg", "node-3"))).isNull();
    }

    private static List<String> rdkafkaLines(String scrape) {
        return scrape.lines().filter(l -> l.contains("rdkafka")).toList();
    }

    private static Map<String, Object> nodeMetrics(KafkaConsumer<?, ?> consumer) {
        Map<String, Object> out = new java.util.TreeMap<>();
        consumer.metrics().forEach((n, m) -> {
            if (n.group().equals("consumer-node-metrics")) {
                out.put(n.name() + n.tags(), m.metricValue());
            }
        });
        return out;
    }

    private static MetricName name(String group, String name, String nodeId) {
        return new MetricName(name, group, "", Map.of("client-id", "c", "node-id", nodeId));
    }
}
