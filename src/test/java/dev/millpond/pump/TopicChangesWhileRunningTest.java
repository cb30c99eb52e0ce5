package dev.millpond.pump;

import dev.millpond.app.Pipeline;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.kafka.PartitionRefresh;
import dev.millpond.kafka.TopicRecreatedException;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.CapturedLog;
import dev.millpond.testsupport.DuckDbSql;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.MillpondEnvironment;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The topic changing under a running pump, on the real broker. Partitions added ({@code Admin.createPartitions}):
 * within MILLPOND_PARTITION_REFRESH_INTERVAL_S the ordinal takes up the new partitions the static rule gives it, from
 * their beginning although the reset policy is {@code latest} (every record in them is newer than the pump), with
 * their lag series at once, and leaves the others to their ordinals. The topic deleted and created again: the pump
 * stops with one line, and the restart reads the new topic from its beginning.
 */
@ServiceBacked
class TopicChangesWhileRunningTest {

    private final KafkaBroker kafka = Services.kafka();
    private final DuckLakeStack lake = Services.newDuckLake();
    private final String topic = Services.uniqueName("grown");
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @Test
    void theNewPartitionsThisOrdinalOwnsAreReadFromTheirBeginningWhateverTheResetPolicy() throws Exception {
        kafka.createTopic(topic, 2);
        // Ordinal 0 of 2: partition 0 now, then 2 and 4 of the four added; never 1, 3 or 5.
        Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic, "REPLICA_COUNT", "2",
                "POD_NAME", "millpond-0", "KAFKA_AUTO_OFFSET_RESET", "latest", "FLUSH_INTERVAL_MS", "300",
                "MILLPOND_PARTITION_REFRESH_INTERVAL_S", "1");
        MillpondConfig config = ConfigLoader.load(env);
        MillpondMetrics metrics = new MillpondMetrics(registry, config.pipelineLabel(), "");
        try (CapturedLog log = CapturedLog.of(PartitionRefresh.class);
             Pipeline pipeline = Pipeline.open(config, metrics, new PumpHealth(),
                     AppProcess.extensionDirectory().toString(), UnaryOperator.identity(), seconds -> { })) {
            RunningPump pump = RunningPump.start(pipeline);
            kafka.produce(topic, 0, SampleEvents.events(0, 50));
            pump.await(() -> metric("millpond_records_written_total").orElse(0) == 50);

            kafka.admin().createPartitions(Map.of(topic, NewPartitions.increaseTo(6))).all().get(30, TimeUnit.SECONDS);
            // The new partitions serve once their end offsets can be listed (a loaded broker takes a moment).
            pump.await(() -> {
                try {
                    return kafka.endOffsets(topic).size() == 6;
                } catch (RuntimeException e) {
                    return false;
                }
            });
            for (int p = 2; p < 6; p++) {
                kafka.produce(topic, p, SampleEvents.events(1000L * p, 30)); // before the pump has looked again
            }
            pump.await(() -> metric("millpond_records_written_total").orElse(0) == 110);
            pump.await(() -> kafka.committedOffsets(config.groupId(), topic).equals(Map.of(0, 50L, 2, 30L, 4, 30L)));
            assertThat(metric("millpond_consumer_lag", "partition", "4")).as("lag covers a partition taken up")
                    .isPresent();
            assertThat(metric("millpond_offsets_skipped_total", "partition", "2", "reason", "out_of_range"))
                    .hasValue(0);
            assertThat(metric("millpond_consumer_lag", "partition", "3")).as("another ordinal's").isEmpty();
            assertThat(log.lines()).anySatisfy(l -> assertThat(l.message()).isEqualTo("Topic '" + topic + "' has 6"
                    + " partitions now (2 before): taking up partitions [2, 4] from their beginning, since every"
                    + " record in them is newer than this pod"));
            pump.stop();
        }
        try (Connection c = lake.openQueryConnection()) {
            assertThat(DuckDbSql.queryLong(c, "SELECT count(*) FROM lake.main.events")).isEqualTo(110);
            assertThat(DuckDbSql.queryLong(c, "SELECT count(*) FROM lake.main.events WHERE id >= 3000 AND id < 4000"
                    + " OR id >= 5000")).as("rows of partitions 3 and 5").isZero();
        }
    }

    @Test
    void aTopicDeletedAndCreatedAgainStopsThePumpAndTheRestartReadsItFromItsBeginning() throws Exception {
        kafka.createTopic(topic, 1);
        kafka.produce(topic, 0, SampleEvents.events(0, 50));
        Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic, "FLUSH_INTERVAL_MS", "300",
                "MILLPOND_PARTITION_REFRESH_INTERVAL_S", "1");
        MillpondConfig config = ConfigLoader.load(env);
        String oldId = topicId();
        try (Pipeline pipeline = open(config)) {
            RunningPump pump = RunningPump.start(pipeline);
            pump.await(() -> kafka.committedOffsets(config.groupId(), topic).equals(Map.of(0, 50L)));
            kafka.recreateTopic(topic, 1);
            kafka.produce(topic, 0, SampleEvents.events(1000, 20));
            assertThat(pump.failure()).isInstanceOf(TopicRecreatedException.class).hasMessage("Topic '" + topic
                    + "' was deleted and created again while millpond ran (topic id " + oldId + ", now " + topicId()
                    + "): stopping without committing anything more; the restart reads the new topic from its"
                    + " beginning");
        }
        try (Pipeline restarted = open(config)) {
            RunningPump.runUntil(restarted, () -> kafka.committedOffsets(config.groupId(), topic)
                    .equals(Map.of(0, 20L)), java.time.Duration.ofSeconds(60));
        }
        try (Connection c = lake.openQueryConnection()) {
            assertThat(DuckDbSql.queryLong(c, "SELECT count(DISTINCT id) FROM lake.main.events")).isEqualTo(70);
        }
    }

    private Pipeline open(MillpondConfig config) throws Exception {
        return Pipeline.open(config, new MillpondMetrics(registry, config.pipelineLabel(), ""), new PumpHealth(),
                AppProcess.extensionDirectory().toString(), UnaryOperator.identity(), seconds -> { });
    }

    private String topicId() throws Exception {
        return kafka.admin().describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic)
                .topicId().toString();
    }

    private OptionalDouble metric(String name, String... labels) {
        return AppProcess.metricIn(registry.scrape(), name, labels);
    }
}
