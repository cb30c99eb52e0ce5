package dev.millpond.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.LakeTopic;
import dev.millpond.testsupport.MillpondEnvironment;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka → millpond (the packaged jar, as separate processes) → DuckLake on the real stack: a KRaft broker, a
 * PostgreSQL catalog and parquet in an S3 server. Asserted from what an engineer would look at: the table (through
 * DuckDB), the committed offsets (through Kafka) and /metrics.
 */
class DuckLakeEndToEndIT {

    static final Path LOGS = Path.of("target", "e2e-logs");
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void twoReplicasLandEveryEventOfAnEightPartitionTopic() throws Exception {
        LakeTopic setup = LakeTopic.create("e2e", 8);
        String table = "events";
        int perPartition = 1_500;
        int malformed = 0;
        int tombstones = 0;
        for (int p = 0; p < 8; p++) {
            List<byte[]> values = new ArrayList<>(SampleEvents.events((long) p * perPartition, perPartition));
            if (p % 3 == 0) {
                values.add("{\"broken\":".getBytes(StandardCharsets.UTF_8));
                values.add("[1,2,3]".getBytes(StandardCharsets.UTF_8));
                malformed += 2;
            }
            setup.produce(p, values);
            if (p == 5) {
                setup.produceTombstones(p, 3);
                tombstones += 3;
            }
        }
        int expected = 8 * perPartition;

        Map<String, String> env = baseEnv(setup.kafka(), setup.lake(), setup.topic(), table);
        env.put("REPLICA_COUNT", "2");
        long started = System.nanoTime();
        try (AppProcess a = AppProcess.start(with(env, "POD_NAME", "millpond-0"), LOGS.resolve(setup.topic() + "-0.log"));
             AppProcess b = AppProcess.start(with(env, "POD_NAME", "millpond-1"), LOGS.resolve(setup.topic() + "-1.log"))) {
            a.await("both replicas to write every event", Duration.ofMinutes(3), () ->
                    a.metric("millpond_records_written_total").orElse(0)
                            + b.metric("millpond_records_written_total").orElse(0) >= expected);
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf("[e2e] %d events through 2 replicas in %.1fs (%.0f records/s incl. JVM start)%n",
                    expected, seconds, expected / seconds);

            // The table, as an engineer would query it.
            try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id) FROM lake.main.events")) {
                    rs.next();
                    assertThat(rs.getLong(1)).isEqualTo(expected);
                    assertThat(rs.getLong(2)).isEqualTo(expected);
                }
                Map<String, String> types = new HashMap<>();
                try (ResultSet rs = s.executeQuery("SELECT column_name, data_type FROM information_schema.columns "
                        + "WHERE table_catalog = 'lake' AND table_name = 'events'")) {
                    while (rs.next()) {
                        types.put(rs.getString(1), rs.getString(2));
                    }
                }
                assertThat(types).containsEntry("id", "BIGINT").containsEntry("team_id", "BIGINT")
                        .containsEntry("amount", "DOUBLE").containsEntry("is_identified", "BOOLEAN")
                        .containsEntry("event", "VARCHAR").containsEntry("properties", "VARCHAR")
                        .containsEntry("person_id", "VARCHAR").containsEntry("_inserted_at", "TIMESTAMP WITH TIME ZONE");
                // A sample row, checked against what the generator writes for every event.
                for (long id : new long[]{0, 4242, expected - 1}) {
                    JsonNode sent = JSON.readTree(SampleEvents.event(id));
                    try (ResultSet rs = s.executeQuery("SELECT event, team_id, amount, is_identified, person_id, "
                            + "properties, uuid FROM lake.main.events WHERE id = " + id)) {
                        assertThat(rs.next()).as("row %d", id).isTrue();
                        assertThat(rs.getString(1)).isEqualTo(sent.get("event").asText());
                        assertThat(rs.getLong(2)).isEqualTo(sent.get("team_id").asLong());
                        assertThat(rs.getDouble(3)).isEqualTo(sent.get("amount").asDouble());
                        assertThat(rs.getBoolean(4)).isEqualTo(sent.get("is_identified").asBoolean());
                        assertThat(rs.getString(5)).isEqualTo(sent.get("person_id").isNull() ? null
                                : sent.get("person_id").asText());
                        // Nested objects land as compact JSON text, key order and nesting preserved.
                        assertThat(rs.getString(6)).isEqualTo(sent.get("properties").toString());
                        assertThat(rs.getString(7)).isEqualTo(sent.get("uuid").asText());
                    }
                }
            }
            assertThat(setup.lake().listDataFiles()).anyMatch(k -> k.endsWith(".parquet"));

            // Offsets: every partition committed up to its end, tombstones and malformed records included.
            Map<Integer, Long> end = setup.endOffsets();
            String groupId = "millpond-" + setup.topic() + "-" + table;
            a.await("offsets committed to the end", Duration.ofSeconds(30),
                    () -> setup.committedOffsets(groupId).equals(end));

            // /metrics, per replica: ordinal 0 owns the even partitions, ordinal 1 the odd ones.
            String m0 = a.metrics();
            String m1 = b.metrics();
            for (int p = 0; p < 8; p++) {
                String metrics = p % 2 == 0 ? m0 : m1;
                long records = perPartition + (p % 3 == 0 ? 2 : 0) + (p == 5 ? 3 : 0);
                assertThat(AppProcess.metricIn(metrics, "millpond_records_consumed_total", "partition",
                        Integer.toString(p)).orElseThrow()).as("consumed p%d", p).isEqualTo(records);
                assertThat(AppProcess.metricIn(metrics, "millpond_last_committed_offset", "partition",
                        Integer.toString(p)).orElseThrow()).as("committed gauge p%d", p).isEqualTo(end.get(p).doubleValue());
                assertThat(AppProcess.metricIn(p % 2 == 0 ? m1 : m0, "millpond_records_consumed_total", "partition",
                        Integer.toString(p))).as("p%d consumed by the other ordinal", p).isEmpty();
            }
            double parseSkips = AppProcess.metricIn(m0, "millpond_records_skipped_total", "reason", "json_parse")
                    .orElse(0) + AppProcess.metricIn(m1, "millpond_records_skipped_total", "reason", "json_parse").orElse(0);
            assertThat(parseSkips).isEqualTo(malformed);
            assertThat(AppProcess.metricIn(m0, "millpond_records_written_total", "pipeline", setup.topic() + "-" + table,
                    "broker_source", "").orElseThrow()
                    + AppProcess.metricIn(m1, "millpond_records_written_total").orElseThrow()).isEqualTo(expected);
            assertThat(AppProcess.metricIn(m0, "millpond_batches_flushed_total", "trigger", "time").orElse(0))
                    .isGreaterThanOrEqualTo(1);
            assertThat(AppProcess.metricIn(m0, "millpond_flush_duration_seconds_count").orElseThrow()).isGreaterThan(0);
            assertThat(m0).contains("millpond_pending_bytes", "millpond_buffer_fullness",
                    "millpond_consume_batch_size_current", "millpond_consumer_lag{");
            assertThat(AppProcess.metricIn(m0, "millpond_errors_total")).isEmpty();
            assertThat(a.get("/readyz").status()).isEqualTo(200);
            assertThat(a.get("/healthz").body()).startsWith("ok poll=");

            assertThat(a.stop(Duration.ofSeconds(60))).isZero();
            assertThat(b.stop(Duration.ofSeconds(60))).isZero();
        }
    }

    @Test
    void aKilledReplicaRestartsWithEveryIdExactlyOnce() throws Exception {
        LakeTopic setup = LakeTopic.create("kill", 4);
        String table = "events";
        long nextId = 0;
        for (int p = 0; p < 4; p++) {
            setup.produce(p, SampleEvents.events(nextId, 2_000));
            nextId += 2_000;
        }
        Map<String, String> env = with(baseEnv(setup.kafka(), setup.lake(), setup.topic(), table), "POD_NAME", "millpond-0");
        env.put("REPLICA_COUNT", "1");
        env.put("FLUSH_INTERVAL_MS", "300");
        env.put("CONSUME_BATCH_SIZE", "200");
        try (AppProcess first = AppProcess.start(env, LOGS.resolve(setup.topic() + "-first.log"))) {
            first.await("a first flush", Duration.ofMinutes(2),
                    () -> first.metric("millpond_records_written_total").orElse(0) > 0);
            first.kill(); // SIGKILL: no final flush, no commit
        }
        for (int p = 0; p < 4; p++) {
            setup.produce(p, SampleEvents.events(nextId, 1_000));
            nextId += 1_000;
        }
        long total = nextId;
        try (AppProcess second = AppProcess.start(env, LOGS.resolve(setup.topic() + "-second.log"))) {
            second.await("every id in the table", Duration.ofMinutes(2), () -> distinctIds(setup.lake()) == total);
            try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id), min(id), max(id) "
                         + "FROM lake.main.events")) {
                rs.next();
                // Exactly-once across a crash (lake offsets are on by default): a batch written but not committed to
                // Kafka is not written again, so every id is there once.
                assertThat(rs.getLong(1)).as("rows").isEqualTo(total);
                assertThat(rs.getLong(2)).as("distinct ids").isEqualTo(total);
                assertThat(rs.getLong(3)).isZero();
                assertThat(rs.getLong(4)).isEqualTo(total - 1);
            }
            Map<Integer, Long> end = setup.endOffsets();
            second.await("offsets committed to the end", Duration.ofSeconds(30),
                    () -> setup.committedOffsets("millpond-" + setup.topic() + "-" + table).equals(end));
            assertThat(second.stop(Duration.ofSeconds(60))).isZero();
        }
    }

    @Test
    void threeReplicasCreatingAndEvolvingOneTableConcurrentlyLandEveryEventExactlyOnce() throws Exception {
        LakeTopic setup = LakeTopic.create("three", 12);
        String table = "events";
        int perPartition = 800;
        for (int p = 0; p < 12; p++) {
            List<byte[]> values = new ArrayList<>();
            for (long id = (long) p * perPartition; id < (long) (p + 1) * perPartition; id++) {
                // Each ordinal's partitions bring their own new column, so the three pods evolve the schema at once.
                String extra = "{\"extra_" + (p % 3) + "\":" + id + ",";
                byte[] event = SampleEvents.event(id);
                byte[] withExtra = (extra + new String(event, 1, event.length - 1, StandardCharsets.UTF_8))
                        .getBytes(StandardCharsets.UTF_8);
                values.add(withExtra);
            }
            setup.produce(p, values);
        }
        int expected = 12 * perPartition;
        Map<String, String> env = baseEnv(setup.kafka(), setup.lake(), setup.topic(), table);
        env.put("REPLICA_COUNT", "3");
        env.put("FLUSH_INTERVAL_MS", "500");
        env.put("CONSUME_BATCH_SIZE", "300");
        List<AppProcess> apps = new ArrayList<>();
        try {
            for (int ordinal = 0; ordinal < 3; ordinal++) {
                apps.add(AppProcess.start(with(env, "POD_NAME", "millpond-" + ordinal),
                        LOGS.resolve(setup.topic() + "-" + ordinal + ".log")));
            }
            AppProcess first = apps.get(0);
            first.await("three replicas to write every event", Duration.ofMinutes(3), () -> apps.stream()
                    .mapToDouble(a -> a.metric("millpond_records_written_total").orElse(0)).sum() >= expected);
            try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id), count(extra_0), count(extra_1), "
                         + "count(extra_2), count(*) FILTER (WHERE coalesce(extra_0, extra_1, extra_2) = id) "
                         + "FROM lake.main.events")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(expected);
                assertThat(rs.getLong(2)).isEqualTo(expected);
                for (int k = 3; k <= 5; k++) {
                    assertThat(rs.getLong(k)).isEqualTo(expected / 3);
                }
                assertThat(rs.getLong(6)).isEqualTo(expected);
            }
            Map<Integer, Long> end = setup.endOffsets();
            first.await("offsets committed to the end", Duration.ofSeconds(30),
                    () -> setup.committedOffsets("millpond-" + setup.topic() + "-" + table).equals(end));
            for (AppProcess app : apps) {
                assertThat(app.stop(Duration.ofSeconds(60))).isZero();
            }
        } finally {
            for (AppProcess app : apps) {
                app.close();
            }
        }
    }

    static long distinctIds(DuckLakeStack lake) {
        try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(DISTINCT id) FROM lake.main.events")) {
            rs.next();
            return rs.getLong(1);
        } catch (Exception e) {
            return -1; // the table may not exist before the first flush
        }
    }

    static Map<String, String> baseEnv(KafkaBroker kafka, DuckLakeStack lake, String topic, String table) {
        return MillpondEnvironment.of(kafka, lake, topic, "DUCKLAKE_TABLE", table, "FLUSH_INTERVAL_MS", "1000");
    }

    static Map<String, String> with(Map<String, String> env, String key, String value) {
        Map<String, String> copy = new HashMap<>(env);
        copy.put(key, value);
        return copy;
    }
}
