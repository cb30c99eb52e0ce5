package dev.millpond.pump;

import dev.millpond.app.Pipeline;
import dev.millpond.config.AutoOffsetReset;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.kafka.OffsetJumps;
import dev.millpond.maintenance.cli.MaintenanceCli;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Retention overtaking the pipeline, on the real broker ({@code Admin.deleteRecords} moves the log start the way
 * retention does) with the real DuckLake sink: whether the pipeline was stopped (the jump happens at startup) or lagged
 * while running (the fetch is out of range), under either reset policy, the jump is one warning naming the partition,
 * the first missing offset and the new position, its offsets are counted in
 * {@code millpond_offsets_skipped_total{partition,reason="out_of_range"}} (present at 0 from startup), and the offsets
 * audit reports the same range as lost to retention.
 */
@ServiceBacked
class RetentionJumpsTest {

    private final KafkaBroker kafka = Services.kafka();
    private final DuckLakeStack lake = Services.newDuckLake();
    private final String topic = Services.uniqueName("retention");

    /** The pipeline was stopped longer than retention: partition 0's committed (and lake) offset 100 is gone. */
    @ParameterizedTest
    @EnumSource(AutoOffsetReset.class)
    void atStartupTheJumpIsWarnedCountedAndAuditedAsLostToRetention(AutoOffsetReset reset) throws Exception {
        kafka.createTopic(topic, 2);
        produce(0, 0, 100);
        produce(1, 1000, 100);
        run(env(AutoOffsetReset.EARLIEST), UnaryOperator.identity(), pump -> pump.await(this::committedToTheEnd));
        Map<String, String> env = env(reset);
        produce(0, 100, 100);
        produce(1, 1100, 100);
        kafka.deleteRecordsBefore(topic, 0, 150);

        Registry restart = new Registry();
        try (CapturedLog log = CapturedLog.of(OffsetJumps.class)) {
            run(env, restart, UnaryOperator.identity(), pump -> pump.await(this::committedToTheEnd));
            long resumedAt = reset == AutoOffsetReset.EARLIEST ? 150 : 200;
            assertThat(log.warnings()).containsExactly("Partition 0: " + (resumedAt - 100) + " offsets skipped unread,"
                    + " 100.." + (resumedAt - 1) + ": the next offset 100 is below the log start 150 (retention or a"
                    + " record deletion passed the pipeline); resuming at " + resumedAt + " (auto.offset.reset="
                    + reset.kafkaValue() + ")");
            assertThat(restart.skipped(0)).isEqualTo(resumedAt - 100);
            assertThat(restart.skipped(1)).as("the series of a partition without a jump, at 0").isZero();
            assertThat(rows()).isEqualTo(100 + (200 - resumedAt) + 200);
        }
        assertAuditFinds(env, "partition 0: ", "retention loss [100, 150) (50 offsets): retention deleted these"
                + " offsets before the lake received them");
    }

    /**
     * The pipeline lags while running: its write is held while retention passes the offset it will fetch next, so its
     * next fetch is out of range.
     */
    @ParameterizedTest
    @EnumSource(AutoOffsetReset.class)
    void whileRunningTheJumpIsWarnedCountedAndAuditedAsLostToRetention(AutoOffsetReset reset) throws Exception {
        kafka.createTopic(topic, 1);
        produce(0, 0, 100);
        run(env(AutoOffsetReset.EARLIEST), UnaryOperator.identity(), pump -> pump.await(this::committedToTheEnd));
        // Inline writes: while the write is held the pump thread does not poll, so the consumer fetches nothing.
        Map<String, String> env = env(reset, "MILLPOND_OVERLAP_WRITES", "false", "FETCH_MAX_WAIT_MS", "100");
        PumpTest.GatedSink[] gate = new PumpTest.GatedSink[1];
        Registry registry = new Registry();
        try (CapturedLog log = CapturedLog.of(OffsetJumps.class)) {
            run(env, registry, sink -> gate[0] = new PumpTest.GatedSink(sink, 0), pump -> {
                produce(0, 100, 1); // one record, so the held flush is all the pump read: it will fetch 101 next
                gate[0].awaitHeld();
                // The fetch the consumer sent with its last poll is answered (empty) within FETCH_MAX_WAIT_MS; the
                // records below must not be in it, or they would be delivered from the buffer despite the deletion.
                Thread.sleep(1_000);
                produce(0, 101, 100);
                kafka.deleteRecordsBefore(topic, 0, 151);
                gate[0].release();
                pump.await(() -> registry.skipped(0) > 0);
                produce(0, 201, 50); // after the jump: under latest too, these are read
                pump.await(this::committedToTheEnd);
            });
            long resumedAt = reset == AutoOffsetReset.EARLIEST ? 151 : 201;
            assertThat(log.warnings()).containsExactly("Partition 0: " + (resumedAt - 101) + " offsets skipped unread,"
                    + " 101.." + (resumedAt - 1) + ": the next offset 101 is below the log start 151 (retention or a"
                    + " record deletion passed the pipeline); resuming at " + resumedAt + " (auto.offset.reset="
                    + reset.kafkaValue() + ")");
            assertThat(registry.skipped(0)).isEqualTo(resumedAt - 101);
            assertThat(rows()).isEqualTo(101 + (201 - resumedAt) + 50);
        }
        assertThat(kafka.committedOffsets(ConfigLoader.load(env).groupId(), topic)).isEqualTo(Map.of(0, 251L));
        if (reset == AutoOffsetReset.EARLIEST) {
            assertAuditFinds(env, "retention loss [101, 151) (50 offsets)");
        } else {
            assertAuditFinds(env, "retention loss [101, 151) (50 offsets)", "gap [151, 201) (50 offsets): no flush"
                    + " recorded these offsets and Kafka still holds records there");
        }
    }

    // ---- helpers

    @FunctionalInterface
    private interface WhileRunning {
        void during(RunningPump pump) throws Exception;
    }

    private static final class Registry {
        final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

        double skipped(int partition) {
            return AppProcess.metricIn(prometheus.scrape(), "millpond_offsets_skipped_total", "partition",
                    Integer.toString(partition), "reason", "out_of_range").orElse(-1);
        }
    }

    private void run(Map<String, String> env, UnaryOperator<dev.millpond.sinks.Sink> decorator, WhileRunning during)
            throws Exception {
        run(env, new Registry(), decorator, during);
    }

    private void run(Map<String, String> env, Registry registry, UnaryOperator<dev.millpond.sinks.Sink> decorator,
                     WhileRunning during) throws Exception {
        MillpondConfig config = ConfigLoader.load(env);
        MillpondMetrics metrics = new MillpondMetrics(registry.prometheus, config.pipelineLabel(), "");
        try (Pipeline pipeline = Pipeline.open(config, metrics, new PumpHealth(),
                AppProcess.extensionDirectory().toString(), decorator, seconds -> { })) {
            RunningPump pump = RunningPump.start(pipeline);
            during.during(pump);
            pump.stop();
        }
    }

    private Map<String, String> env(AutoOffsetReset reset, String... overrides) {
        Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic, "FLUSH_INTERVAL_MS", "300",
                "KAFKA_AUTO_OFFSET_RESET", reset.kafkaValue(),
                "MILLPOND_DUCKDB_EXTENSION_DIR", AppProcess.extensionDirectory().toString());
        for (int i = 0; i + 1 < overrides.length; i += 2) {
            env.put(overrides[i], overrides[i + 1]);
        }
        return env;
    }

    private boolean committedToTheEnd() {
        Map<Integer, Long> end = kafka.endOffsets(topic);
        return kafka.committedOffsets("millpond-" + topic + "-events", topic).equals(end);
    }

    private void produce(int partition, long firstId, int count) {
        kafka.produce(topic, partition, SampleEvents.events(firstId, count));
    }

    /** The rows in the table, each id once. */
    private long rows() throws Exception {
        try (Connection c = lake.openQueryConnection()) {
            long rows = DuckDbSql.queryLong(c, "SELECT count(*) FROM lake.main.events");
            assertThat(DuckDbSql.queryLong(c, "SELECT count(DISTINCT id) FROM lake.main.events")).isEqualTo(rows);
            return rows;
        }
    }

    private static void assertAuditFinds(Map<String, String> env, String... expected) {
        StringWriter out = new StringWriter();
        int exit = MaintenanceCli.run(env, new PrintWriter(out, true), "audit");
        assertThat(exit).as(out.toString()).isEqualTo(1);
        assertThat(out.toString()).contains(expected);
    }
}
