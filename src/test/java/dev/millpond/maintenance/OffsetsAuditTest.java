package dev.millpond.maintenance;

import dev.millpond.app.Pipeline;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.maintenance.cli.MaintenanceCli;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.DuckDbSql;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The offsets audit on a lake the real pipeline wrote (in-JVM, real broker, Postgres catalog, S3 server): clean
 * after several runs that resumed from the lake, then, after one flush's offsets rows are deleted by hand, it reports
 * exactly that flush's ranges as gaps and the CLI exits 1. The offsets table starts in the old six-column shape, as
 * a lake written by an earlier build would have it, and gains first_offset.
 */
@ServiceBacked
class OffsetsAuditTest {

    private static final String TABLE = "events";
    private final KafkaBroker kafka = Services.kafka();
    private final DuckLakeStack lake = Services.newDuckLake();
    private final String topic = Services.uniqueName("audit");
    private long nextId;

    @Test
    void cleanAfterRestartsAndExactAboutADeletedFlush() throws Exception {
        kafka.createTopic(topic, 2);
        try (Connection c = lake.openQueryConnection()) {
            DuckDbSql.execute(c, "CREATE TABLE lake.main._millpond_offsets (table_name VARCHAR, group_id VARCHAR, "
                    + "topic VARCHAR, kafka_partition INTEGER, next_offset BIGINT, written_at TIMESTAMPTZ)");
        }
        Map<String, String> env = env();
        for (int round = 0; round < 3; round++) {
            produce(2, 25);
            runUntilCommittedToTheEnd(env);
        }

        Run clean = audit(env);
        assertThat(clean.exit()).as(clean.out()).isZero();
        assertThat(clean.out()).contains("partition 0: lake [0, 75) in ", "partition 1: lake [0, 75) in ",
                "audit: clean (2 partition(s))");

        // Delete one flush's rows: every partition's row of that flush (one INSERT, one written_at).
        List<long[]> deleted = new ArrayList<>();
        try (Connection c = lake.openQueryConnection()) {
            String writtenAt;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT written_at::VARCHAR FROM "
                    + "lake.main._millpond_offsets WHERE kafka_partition = 0 ORDER BY next_offset LIMIT 1 OFFSET 1")) {
                rs.next();
                writtenAt = rs.getString(1);
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT kafka_partition, "
                    + "first_offset, next_offset FROM lake.main._millpond_offsets WHERE written_at = TIMESTAMPTZ '"
                    + writtenAt + "' ORDER BY 1")) {
                while (rs.next()) {
                    deleted.add(new long[]{rs.getInt(1), rs.getLong(2), rs.getLong(3)});
                }
            }
            DuckDbSql.execute(c, "DELETE FROM lake.main._millpond_offsets WHERE written_at = TIMESTAMPTZ '"
                    + writtenAt + "'");
        }
        assertThat(deleted).isNotEmpty();

        Run gap = audit(env);
        assertThat(gap.exit()).as(gap.out()).isEqualTo(1);
        for (long[] row : deleted) {
            assertThat(gap.out()).contains("gap [" + row[1] + ", " + row[2] + ") (" + (row[2] - row[1]) + " offsets)");
        }
        assertThat(gap.out()).contains("audit: " + deleted.size() + " finding(s) in " + deleted.size()
                + " partition(s)");
    }

    private record Run(int exit, String out) {
    }

    private static Run audit(Map<String, String> env) {
        StringWriter out = new StringWriter();
        int exit = MaintenanceCli.run(env, new PrintWriter(out, true), "audit");
        return new Run(exit, out.toString());
    }

    private void produce(int partitions, int perPartition) {
        for (int p = 0; p < partitions; p++) {
            kafka.produce(topic, p, SampleEvents.events(nextId, perPartition));
            nextId += perPartition;
        }
    }

    private Map<String, String> env() {
        Map<String, String> env = new HashMap<>(lake.environment());
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
        env.put("KAFKA_TOPIC", topic);
        env.put("REPLICA_COUNT", "1");
        env.put("POD_NAME", "millpond-0");
        env.put("DUCKLAKE_TABLE", TABLE);
        env.put("FLUSH_INTERVAL_MS", "200");
        env.put("MILLPOND_DUCKDB_EXTENSION_DIR", AppProcess.extensionDirectory().toString());
        return env;
    }

    private void runUntilCommittedToTheEnd(Map<String, String> env) throws Exception {
        MillpondConfig config = ConfigLoader.load(env);
        MillpondMetrics metrics = new MillpondMetrics(new SimpleMeterRegistry(), config.pipelineLabel(), "");
        Pipeline pipeline = Pipeline.open(config, metrics, new PumpHealth(),
                AppProcess.extensionDirectory().toString(), UnaryOperator.identity(), s -> { });
        Thread t = new Thread(pipeline.pump()::run, "pump");
        t.start();
        try {
            Map<Integer, Long> end = kafka.endOffsets(topic);
            Await.within(Duration.ofSeconds(60), "commits reach the end offsets").pollInterval(Duration.ofMillis(100))
                    .untilAsserted(() -> assertThat(kafka.committedOffsets(config.groupId(), topic)).isEqualTo(end));
        } finally {
            pipeline.pump().requestStop();
            t.join(60_000);
            pipeline.close();
        }
    }
}
