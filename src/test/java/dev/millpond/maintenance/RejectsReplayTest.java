package dev.millpond.maintenance;

import dev.millpond.app.Pipeline;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
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
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code replay-rejects} in process on the real stack, after the pipeline set records aside: through the settings the
 * environment has now (a raised width bound, the typed pin, the drop filter), each record lands once or stays a
 * reject with its new reason; the lake offsets are not touched.
 */
@ServiceBacked
class RejectsReplayTest {

    private final KafkaBroker kafka = Services.kafka();
    private final DuckLakeStack lake = Services.newDuckLake();
    private final String topic = Services.uniqueName("replay");

    /** Ordinary events on partition 0; on partition 1 events with {@code wide} extra keys, some of kind spam. */
    private void produce(int ordinary, int wide, int extraKeys, int firstId) {
        List<byte[]> plain = new ArrayList<>();
        for (int i = 0; i < ordinary; i++) {
            plain.add(event(firstId + i, "plain", 0));
        }
        kafka.produce(topic, 0, plain);
        List<byte[]> wides = new ArrayList<>();
        for (int i = 0; i < wide; i++) {
            wides.add(event(firstId + ordinary + i, i % 5 == 4 ? "spam" : "wide", extraKeys));
        }
        kafka.produce(topic, 1, wides);
    }

    private static byte[] event(int id, String kind, int extraKeys) {
        StringBuilder json = new StringBuilder("{\"id\":" + id + ",\"kind\":\"" + kind
                + "\",\"happened_at\":\"2026-01-02 03:04:" + String.format("%02d", id % 60) + "\"");
        for (int k = 0; k < extraKeys; k++) {
            json.append(",\"w").append(k).append("\":").append(id * 100 + k);
        }
        return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    private Map<String, String> env(String... overrides) {
        Map<String, String> env = new HashMap<>(lake.environment());
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
        env.put("KAFKA_TOPIC", topic);
        env.put("REPLICA_COUNT", "1");
        env.put("POD_NAME", "millpond-0");
        env.put("DUCKLAKE_TABLE", "events");
        env.put("FLUSH_INTERVAL_MS", "300");
        env.put("MILLPOND_DUCKDB_EXTENSION_DIR", AppProcess.extensionDirectory().toString());
        env.put("MILLPOND_TYPED_COLUMNS", "happened_at:timestamptz");
        env.put("MILLPOND_FILTER_DROP_FIELD_NAME", "kind");
        env.put("MILLPOND_FILTER_DROP_VALUES", "spam");
        // The table's own 4 columns (id, kind, happened_at, _inserted_at) and one more.
        env.put("MILLPOND_MAX_TABLE_COLUMNS", "5");
        for (int i = 0; i + 1 < overrides.length; i += 2) {
            env.put(overrides[i], overrides[i + 1]);
        }
        return env;
    }

    @Test
    void rejectsLandThroughTheCurrentSettingsOnceAndTheOffsetsStayAsTheyWere() throws Exception {
        kafka.createTopic(topic, 2);
        produce(20, 10, 3, 0);
        kafka.produce(topic, 1, List.of("{oops".getBytes(StandardCharsets.UTF_8)));
        runUntilCommittedToTheEnd(env());
        assertThat(rows("SELECT reason, count(*) FROM lake.main._millpond_rejects GROUP BY ALL ORDER BY ALL"))
                .containsExactly("column_limit|10", "json_parse|1");
        assertThat(count("SELECT count(*) FROM lake.main.events")).isEqualTo(20);
        List<String> offsets = rows("SELECT * FROM lake.main._millpond_offsets ORDER BY ALL");
        List<String> parseReject = rows("SELECT reason, epoch_us(rejected_at) FROM lake.main._millpond_rejects "
                + "WHERE reason = 'json_parse'");
        Map<String, String> raised = env("MILLPOND_MAX_TABLE_COLUMNS", "100");

        Run dry = cli(raised, "replay-rejects", "--dry-run", "--batch-size", "4");
        assertThat(dry.exit()).as(dry.out()).isZero();
        assertThat(dry.out()).contains("11 record(s) to replay in 3 batch(es): 8 would be written to the table, "
                + "1 would be rejected again (json_parse 1), 2 would be dropped by the pipeline's rules");
        assertThat(count("SELECT count(*) FROM lake.main._millpond_rejects")).as("a dry run changes nothing")
                .isEqualTo(11);
        assertThat(count("SELECT count(*) FROM lake.main.events")).isEqualTo(20);

        Run replay = cli(raised, "replay-rejects", "--reason", "column_limit", "--batch-size", "4");
        assertThat(replay.exit()).as(replay.out()).isZero();
        assertThat(replay.out()).contains("10 record(s) replayed in 3 batch(es): 8 were written to the table, "
                + "0 were rejected again, 2 were dropped by the pipeline's rules");
        assertThat(rows("SELECT id, kind, typeof(happened_at), happened_at = TIMESTAMPTZ '2026-01-02 03:04:00+00' "
                + "+ INTERVAL (id % 60) SECOND, w0, w1, w2 FROM lake.main.events WHERE kind <> 'plain' ORDER BY id"))
                .as("the wide events with the pin applied; spam dropped by the filter").containsExactly(
                        "20|wide|TIMESTAMP WITH TIME ZONE|true|2000|2001|2002",
                        "21|wide|TIMESTAMP WITH TIME ZONE|true|2100|2101|2102",
                        "22|wide|TIMESTAMP WITH TIME ZONE|true|2200|2201|2202",
                        "23|wide|TIMESTAMP WITH TIME ZONE|true|2300|2301|2302",
                        "25|wide|TIMESTAMP WITH TIME ZONE|true|2500|2501|2502",
                        "26|wide|TIMESTAMP WITH TIME ZONE|true|2600|2601|2602",
                        "27|wide|TIMESTAMP WITH TIME ZONE|true|2700|2701|2702",
                        "28|wide|TIMESTAMP WITH TIME ZONE|true|2800|2801|2802");
        assertThat(rows("SELECT reason, epoch_us(rejected_at) FROM lake.main._millpond_rejects"))
                .as("--reason left the other reject alone").isEqualTo(parseReject);
        assertThat(rows("SELECT * FROM lake.main._millpond_offsets ORDER BY ALL")).as("lake offsets untouched")
                .isEqualTo(offsets);

        Run again = cli(raised, "replay-rejects");
        assertThat(again.exit()).as(again.out()).isZero();
        assertThat(again.out()).contains("1 record(s) replayed in 1 batch(es): 0 were written to the table, "
                + "1 were rejected again (json_parse 1)");
        assertThat(rows("SELECT kafka_partition, kafka_offset, reason, decode(value), epoch_us(rejected_at) > "
                + parseReject.get(0).split("\\|")[1] + " FROM lake.main._millpond_rejects"))
                .as("the reject replaced by its new rejection").containsExactly("1|10|json_parse|{oops|true");
        assertThat(rows("SELECT count(*), count(DISTINCT id), min(id), max(id) FROM lake.main.events"))
                .containsExactly("28|28|0|28");
        assertThat(rows("SELECT * FROM lake.main._millpond_offsets ORDER BY ALL")).isEqualTo(offsets);
    }

    /**
     * A bound raised only part of the way: the narrower records land, the wider ones stay rejects with their new
     * error, and a reject an older build kept under another reason takes the new one. --since selects by when a
     * reject was kept; a reject whose value was cut is not the record and is left alone.
     */
    @Test
    void aRecordThatFailsAgainStaysARejectWithItsNewReason() throws Exception {
        kafka.createTopic(topic, 2);
        produce(5, 4, 2, 0);
        produce(0, 4, 9, 100);
        runUntilCommittedToTheEnd(env());
        assertThat(count("SELECT count(*) FROM lake.main._millpond_rejects")).isEqualTo(8);
        Instant between = Instant.now();
        Thread.sleep(50);
        byte[] older = event(500, "wide", 9);
        try (Connection c = lake.openQueryConnection()) {
            DuckDbSql.execute(c, "INSERT INTO lake.main._millpond_rejects VALUES ('events', '" + topic + "', 1, 500, "
                    + "NULL, 'schema', 'kept by an older build', encode('" + new String(older, StandardCharsets.UTF_8)
                    + "'), " + older.length + ", now(), false), ('events', '" + topic + "', 1, 501, NULL, "
                    + "'column_limit', 'cut', encode('{\"id\":501,\"w0\":'), 200, now(), true)");
        }
        Map<String, String> partly = env("MILLPOND_MAX_TABLE_COLUMNS", "8");

        Run since = cli(partly, "replay-rejects", "--since", between.toString());
        assertThat(since.exit()).as(since.out()).isZero();
        assertThat(since.out()).contains("1 record(s) replayed in 1 batch(es): 0 were written to the table, "
                + "1 were rejected again (column_limit 1)", "1 reject(s) with a cut value left alone");
        assertThat(rows("SELECT reason, error LIKE 'needs column w% beyond the table''s width bound%', "
                + "decode(value) = '" + new String(older, StandardCharsets.UTF_8) + "' FROM lake.main._millpond_rejects "
                + "WHERE kafka_offset = 500")).as("its new reason, the record whole").containsExactly(
                "column_limit|true|true");
        assertThat(count("SELECT count(*) FROM lake.main._millpond_rejects")).isEqualTo(10);

        Run all = cli(partly, "replay-rejects");
        assertThat(all.exit()).as(all.out()).isZero();
        assertThat(all.out()).contains("9 record(s) replayed in 1 batch(es): 4 were written to the table, "
                + "5 were rejected again (column_limit 5), 0 were dropped");
        assertThat(rows("SELECT kafka_offset, reason, error LIKE 'needs column w% beyond the table''s width bound%' "
                + "FROM lake.main._millpond_rejects ORDER BY ALL")).containsExactly("4|column_limit|true",
                "5|column_limit|true", "6|column_limit|true", "7|column_limit|true", "500|column_limit|true",
                "501|column_limit|false");
        assertThat(rows("SELECT count(*), count(DISTINCT id), min(id), max(id), count(w0) FROM lake.main.events"))
                .containsExactly("9|9|0|8|4");
    }

    @Test
    void refusedWithoutTheRejectsTableAndNothingToDoWithoutRejects() throws Exception {
        kafka.createTopic(topic, 2);
        Run off = cli(env("MILLPOND_REJECTS", "false"), "replay-rejects");
        assertThat(off.exit()).isEqualTo(1);
        assertThat(off.err()).contains("replay-rejects needs MILLPOND_REJECTS=true");
        Run nothing = cli(env(), "replay-rejects");
        assertThat(nothing.exit()).as(nothing.err()).isZero();
        assertThat(nothing.out()).contains("0 record(s) replayed in 0 batch(es)");
        assertThat(cli(env(), "replay-rejects", "--since", "yesterday").exit()).isEqualTo(2);
        assertThat(cli(env(), "replay-rejects", "--batch-size", "0").exit()).isEqualTo(2);
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run cli(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = MaintenanceCli.run(env, new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** Runs the pipeline in process until Kafka's commits reach every end offset. */
    private void runUntilCommittedToTheEnd(Map<String, String> env) throws Exception {
        MillpondConfig config = ConfigLoader.load(env);
        MillpondMetrics metrics = new MillpondMetrics(new SimpleMeterRegistry(), config.pipelineLabel(), "");
        try (Pipeline pipeline = Pipeline.open(config, metrics, new PumpHealth(),
                AppProcess.extensionDirectory().toString(), UnaryOperator.identity(), s -> { })) {
            Thread pump = new Thread(pipeline.pump()::run, "pump-under-test");
            pump.start();
            try {
                Map<Integer, Long> end = kafka.endOffsets(topic);
                String group = "millpond-" + topic + "-events";
                Await.within(Duration.ofSeconds(60), "commits at the end offsets " + end)
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> kafka.committedOffsets(group, topic).equals(end));
            } finally {
                pipeline.pump().requestStop();
                pump.join(60_000);
            }
        }
    }

    private long count(String sql) throws Exception {
        try (Connection c = lake.openQueryConnection()) {
            return DuckDbSql.queryLong(c, sql);
        }
    }

    private List<String> rows(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }
}
