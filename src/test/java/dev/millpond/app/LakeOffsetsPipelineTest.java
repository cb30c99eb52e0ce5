package dev.millpond.app;

import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.kafka.ResumeDecision;
import dev.millpond.kafka.StartPositions;
import dev.millpond.maintenance.cli.MaintenanceCli;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.CapturedLog;
import dev.millpond.testsupport.DuckDbSql;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once on the real stack, in-JVM: a crash between the lake commit and the Kafka commit is simulated by
 * writing some flushes and then moving the group's Kafka offsets back to 0, as if those commits never happened.
 */
@ServiceBacked
class LakeOffsetsPipelineTest {

    private static final String TABLE = "events";

    private final KafkaBroker kafka = Services.kafka();
    private final DuckLakeStack lake = Services.newDuckLake();
    private final String topic = Services.uniqueName("eo");
    private final String group = "millpond-" + topic + "-" + TABLE;
    private long nextId;

    @Test
    void recordsTheLakeHoldsAreNotWrittenAgainWhenKafkasCommitIsBehind() throws Exception {
        kafka.createTopic(topic, 2);
        produce(2, 100);
        runUntilCommittedToTheEnd(env(1, 0, true));
        kafka.commitOffsets(group, topic, Map.of(0, 0L, 1, 0L));
        produce(2, 50);

        Run restart = runUntilCommittedToTheEnd(env(1, 0, true));

        assertExactlyOnce(300);
        assertThat(restart.skippedReplay()).isEqualTo(200);
        assertThat(restart.logLines()).containsExactly(
                "Partition 0: resuming at 100 (lake 100 > kafka 0: 100 records already written)",
                "Partition 1: resuming at 100 (lake 100 > kafka 0: 100 records already written)");
        assertThat(kafka.committedOffsets(group, topic)).isEqualTo(Map.of(0, 150L, 1, 150L));
    }

    @Test
    void withLakeOffsetsOffTheSameScenarioReplaysAtLeastOnce() throws Exception {
        kafka.createTopic(topic, 2);
        produce(2, 100);
        runUntilCommittedToTheEnd(env(1, 0, false));
        kafka.commitOffsets(group, topic, Map.of(0, 0L, 1, 0L));
        produce(2, 50);

        Run restart = runUntilCommittedToTheEnd(env(1, 0, false));

        assertThat(counts()).as("count(*), count(DISTINCT id)").containsExactly(500L, 300L);
        assertThat(restart.skippedReplay()).isZero();
        assertThat(restart.logLines()).containsExactly("Partition 0: resuming at 0 (kafka committed)",
                "Partition 1: resuming at 0 (kafka committed)");
    }

    @Test
    void partitionsMovingBetweenOrdinalsResumeFromWhatTheOtherOrdinalWrote() throws Exception {
        kafka.createTopic(topic, 4);
        produce(4, 100);
        runUntilCommittedToTheEnd(env(2, 0, true), env(2, 1, true));
        kafka.commitOffsets(group, topic, Map.of(0, 0L, 1, 0L, 2, 0L, 3, 0L));
        produce(4, 50);

        Run scaledDown = runUntilCommittedToTheEnd(env(1, 0, true));

        assertExactlyOnce(600);
        assertThat(scaledDown.skippedReplay()).isEqualTo(400);
        assertThat(scaledDown.logLines()).hasSize(4).allMatch(l -> l.contains("lake 100 > kafka 0"));
    }

    @Test
    void withTheLakeRecordsDeletedKafkasOffsetIsUsed() throws Exception {
        kafka.createTopic(topic, 2);
        produce(2, 100);
        runUntilCommittedToTheEnd(env(1, 0, true));
        try (Connection c = lake.openQueryConnection()) {
            // What snapshot expiry or an operator's cleanup leaves: no record for this table and group.
            DuckDbSql.execute(c, "DELETE FROM lake.main._millpond_offsets");
        }
        produce(2, 50);

        Run restart = runUntilCommittedToTheEnd(env(1, 0, true));

        assertExactlyOnce(300);
        assertThat(restart.skippedReplay()).isZero();
        assertThat(restart.logLines()).containsExactly("Partition 0: resuming at 100 (kafka committed)",
                "Partition 1: resuming at 100 (kafka committed)");
    }

    /**
     * Kafka has no offset at all — its commits expired after a long stop (offsets.retention.minutes), or an operator
     * deleted the group — and the reset policy is latest: the lake still knows where the pipeline was, and wins.
     */
    @Test
    void aGroupWithoutOffsetsResumesFromTheLakeEvenUnderLatest() throws Exception {
        kafka.createTopic(topic, 2);
        produce(2, 100);
        runUntilCommittedToTheEnd(env(1, 0, true));
        produce(2, 50);
        kafka.admin().deleteConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS);
        assertThat(kafka.committedOffsets(group, topic)).isEmpty();

        Map<String, String> latest = env(1, 0, true);
        latest.put("KAFKA_AUTO_OFFSET_RESET", "latest");
        Run restart = runUntilCommittedToTheEnd(latest);

        assertExactlyOnce(300);
        assertThat(restart.logLines()).containsExactly(
                "Partition 0: resuming at 100 (lake 100; kafka none, latest → 150: the lake's offset wins over the"
                        + " reset policy)",
                "Partition 1: resuming at 100 (lake 100; kafka none, latest → 150: the lake's offset wins over the"
                        + " reset policy)");
    }

    /**
     * The topic is deleted and created again under the same name while the pipeline is stopped, and the new topic's
     * log passes the old offsets before it starts: the lake's offsets are the deleted topic's (its topic id), so the
     * new topic is read from its beginning instead of from offset 100.
     */
    @Test
    void aTopicDeletedAndCreatedAgainIsReadFromItsBeginning() throws Exception {
        kafka.createTopic(topic, 2);
        produce(2, 100);
        runUntilCommittedToTheEnd(env(1, 0, true));
        String oldId = topicId();
        kafka.recreateTopic(topic, 2);
        produce(2, 150);

        Run restart;
        List<String> warnings;
        try (CapturedLog log = CapturedLog.of(StartPositions.class)) {
            restart = runUntilCommittedToTheEnd(env(1, 0, true));
            warnings = log.warnings();
        }

        assertExactlyOnce(200 + 300);
        assertThat(warnings).containsExactly("Topic '" + topic + "' was deleted and created again: the lake's offsets"
                + " were recorded for topic id " + oldId + ", the topic's id is now " + topicId() + "; they are ignored"
                + " and every partition is read from its beginning");
        assertThat(restart.logLines()).allSatisfy(l -> assertThat(l).contains("resuming at 0 (topic recreated"));
        try (Connection c = lake.openQueryConnection()) {
            assertThat(DuckDbSql.queryLong(c, "SELECT count(DISTINCT topic_id) FROM lake.main._millpond_offsets"))
                    .isEqualTo(2);
        }
        // The audit reads the new topic's rows only: clean, and it says what it left out.
        Map<String, String> auditEnv = env(1, 0, true);
        auditEnv.put("MILLPOND_DUCKDB_EXTENSION_DIR", AppProcess.extensionDirectory().toString());
        StringWriter out = new StringWriter();
        int exit = MaintenanceCli.run(auditEnv, new PrintWriter(out, true), "audit");
        assertThat(exit).as(out.toString()).isZero();
        assertThat(out.toString()).containsPattern("\\d+ row\\(s\\) recorded before the topic was deleted and created"
                + " again \\(under another topic id, or none\\) are not audited")
                .contains("partition 0: lake [0, 150) in ", "audit: clean (2 partition(s))");
    }

    /**
     * A lake the original (or a build before topic ids) wrote: its offset rows have no topic id, and are the live
     * topic's. The restart resumes from them, exactly once.
     */
    @Test
    void offsetsRecordedWithoutATopicIdAreTheLiveTopics() throws Exception {
        kafka.createTopic(topic, 2);
        produce(2, 100);
        runUntilCommittedToTheEnd(env(1, 0, true));
        try (Connection c = lake.openQueryConnection()) {
            DuckDbSql.execute(c, "UPDATE lake.main._millpond_offsets SET topic_id = NULL");
        }
        kafka.commitOffsets(group, topic, Map.of(0, 0L, 1, 0L));
        produce(2, 50);

        Run restart = runUntilCommittedToTheEnd(env(1, 0, true));

        assertExactlyOnce(300);
        assertThat(restart.skippedReplay()).isEqualTo(200);
    }

    private String topicId() throws Exception {
        return kafka.admin().describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(topic).topicId().toString();
    }

    private void produce(int partitions, int perPartition) {
        for (int p = 0; p < partitions; p++) {
            kafka.produce(topic, p, SampleEvents.events(nextId, perPartition));
            nextId += perPartition;
        }
    }

    private Map<String, String> env(int replicas, int ordinal, boolean lakeOffsets) {
        Map<String, String> env = new HashMap<>(lake.environment());
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
        env.put("KAFKA_TOPIC", topic);
        env.put("REPLICA_COUNT", Integer.toString(replicas));
        env.put("POD_NAME", "millpond-" + ordinal);
        env.put("DUCKLAKE_TABLE", TABLE);
        env.put("FLUSH_INTERVAL_MS", "300");
        env.put("MILLPOND_LAKE_OFFSETS", Boolean.toString(lakeOffsets));
        return env;
    }

    /** What the replicas of one run reported: their startup decisions and the skipped-replay counter, summed. */
    private record Run(List<String> logLines, double skippedReplay) {
    }

    /** Runs one pipeline per environment (replicas of one deployment) until Kafka's commits reach every end offset. */
    @SafeVarargs
    private Run runUntilCommittedToTheEnd(Map<String, String>... replicas) throws Exception {
        List<Pipeline> pipelines = new ArrayList<>();
        List<PrometheusMeterRegistry> registries = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        Map<String, Throwable> failed = new ConcurrentHashMap<>();
        try {
            for (Map<String, String> env : replicas) {
                MillpondConfig config = ConfigLoader.load(env);
                PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
                MillpondMetrics metrics = new MillpondMetrics(registry, config.pipelineLabel(), "");
                Pipeline pipeline = Pipeline.open(config, metrics, new PumpHealth(),
                        AppProcess.extensionDirectory().toString(), UnaryOperator.identity(), s -> { });
                pipelines.add(pipeline);
                registries.add(registry);
                Thread t = new Thread(pipeline.pump()::run, "pump-" + config.ordinal());
                t.setUncaughtExceptionHandler((thread, e) -> failed.put(thread.getName(), e));
                t.start();
                threads.add(t);
            }
            Map<Integer, Long> end = kafka.endOffsets(topic);
            Await.within(Duration.ofSeconds(60), "commits reach the end offsets").pollInterval(Duration.ofMillis(100))
                    .untilAsserted(() -> {
                        // A pump that failed (a write refused for good) never gets there: say why now, not in 60 s.
                        if (!failed.isEmpty()) {
                            Map.Entry<String, Throwable> first = failed.entrySet().iterator().next();
                            throw new IllegalStateException(first.getKey()
                                    + " failed before its commits reached the end offsets", first.getValue());
                        }
                        assertThat(kafka.committedOffsets(group, topic)).isEqualTo(end);
                    });
        } finally {
            for (Pipeline p : pipelines) {
                p.pump().requestStop();
            }
            for (Thread t : threads) {
                t.join(60_000);
            }
            pipelines.forEach(Pipeline::close);
        }
        List<String> lines = pipelines.stream().flatMap(p -> p.resumeDecisions().stream())
                .sorted(java.util.Comparator.comparingInt(ResumeDecision::partition))
                .map(ResumeDecision::logLine).toList();
        double skipped = registries.stream().mapToDouble(r ->
                AppProcess.metricIn(r.scrape(), "millpond_replay_skipped_records_total").orElseThrow()).sum();
        return new Run(lines, skipped);
    }

    private List<Long> counts() throws Exception {
        try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id) FROM lake.main." + TABLE)) {
            rs.next();
            return List.of(rs.getLong(1), rs.getLong(2));
        }
    }

    private void assertExactlyOnce(long produced) throws Exception {
        assertThat(counts()).as("count(*), count(DISTINCT id)").containsExactly(produced, produced);
    }
}
