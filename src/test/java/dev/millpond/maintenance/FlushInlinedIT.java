package dev.millpond.maintenance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.millpond.maintenance.MaintenanceCliIT.Result;
import dev.millpond.maintenance.metrics.CatalogMetricsCli;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.LakeTopic;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A trickle topic on the packaged app: every flush holds a few events, so DuckLake 1.5 inlines each into the catalog,
 * and new keys every few flushes give the table new schema versions, each with an inlined table of its own. The
 * packaged {@code ducklake-maintenance flush-inlined} (with the writer still running) then writes every inlined row to
 * parquet: the table reads exactly as before, every produced value intact, no table keeps more than the one empty
 * inlined table DuckLake itself keeps, and the rejects table (which never inlines) is left as it was. The exporter's
 * per-table gauges follow the catalog.
 */
class FlushInlinedIT {

    private static final Path LOGS = Path.of("target", "e2e-logs");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Random random = new Random(32);
    private final Map<Long, ObjectNode> produced = new LinkedHashMap<>();
    private long nextId;

    @Test
    void aTrickleIsInlinedAndFlushInlinedWritesItToParquetIntact() throws Exception {
        LakeTopic setup = LakeTopic.create("trickle", 2);
        Map<String, String> env = setup.environment("FLUSH_INTERVAL_MS", "300", "MILLPOND_LOG_FORMAT", "text");
        Map<String, String> toolEnv = new HashMap<>(env);
        toolEnv.put("MILLPOND_DUCKDB_EXTENSION_DIR", AppProcess.extensionDirectory().toString());
        String group = "millpond-" + setup.topic() + "-events";
        try (AppProcess app = AppProcess.start(env, LOGS.resolve(setup.topic() + ".log"))) {
            app.awaitLog("Assigned partitions", Duration.ofMinutes(2));
            // One flush per round, each of three events: an inlined insert every time. A malformed record in round 2
            // goes to the rejects table, which never inlines.
            for (int round = 0; round < 12; round++) {
                List<String> newKeys = round < 4 ? List.of() : round < 8 ? List.of("color") : List.of("color", "score");
                List<byte[]> values = events(3, newKeys);
                if (round == 2) {
                    values.add("{\"broken\": ".getBytes(StandardCharsets.UTF_8));
                }
                setup.produce(round % 2, values);
                app.awaitCommittedToEnd(setup.kafka(), setup.topic(), group, Duration.ofMinutes(1));
            }
            List<Inlined> before = inventory(setup);
            Inlined events = table(before, "main.events");
            assertThat(events.rows()).as("every event is an inlined row").isEqualTo(produced.size());
            assertThat(events.inlinedTables()).as("an inlined table per schema version").isGreaterThanOrEqualTo(3);
            assertThat(table(before, "main._millpond_offsets").rows()).as("the offsets rows of every flush")
                    .isGreaterThanOrEqualTo(12);
            assertThat(before.stream().filter(t -> t.table().equals("_millpond_rejects")).mapToLong(
                    Inlined::rows).sum()).as("rejects are never inlined").isZero();
            assertThat(dataFileRows(setup, "events")).as("no parquet yet").isZero();
            List<String> contents = contents(setup);
            assertProducedValues(setup);
            String exporterBefore = exporter(toolEnv);
            assertThat(AppProcess.metricIn(exporterBefore, "ducklake_inlined_data_rows", "schema", "main", "table",
                    "events").orElseThrow()).isEqualTo(produced.size());
            assertThat(AppProcess.metricIn(exporterBefore, "ducklake_inlined_data_tables", "schema", "main", "table",
                    "events").orElseThrow()).isEqualTo(events.inlinedTables());

            Result dry = MaintenanceCliIT.tool(toolEnv, "flush-inlined", "--dry-run");
            assertThat(dry.exit()).as(dry.err()).isZero();
            long inlined = before.stream().mapToLong(Inlined::rows).sum();
            assertThat(dry.out()).contains(events.line(), inlined + " inlined row(s) would be flushed")
                    .doesNotContain("Target catalog");
            assertThat(inventory(setup)).as("a dry run changes nothing").isEqualTo(before);

            Result flush = MaintenanceCliIT.tool(toolEnv, "flush-inlined");
            assertThat(flush.exit()).as(flush.err()).isZero();
            assertThat(flush.out()).startsWith("Target catalog: postgres ").contains("row(s) flushed to parquet");
            assertFlushed(setup);
            assertThat(contents(setup)).as("the table reads exactly as before, _inserted_at included")
                    .isEqualTo(contents);
            assertThat(dataFileRows(setup, "events")).isEqualTo(produced.size());
            assertThat(AppProcess.metricIn(exporter(toolEnv), "ducklake_inlined_data_rows", "schema", "main",
                    "table", "events").orElseThrow()).isZero();

            // A new key after the flush: a new schema version, inlined again, flushed again.
            setup.produce(0, events(2, List.of("color", "score", "late")));
            app.awaitCommittedToEnd(setup.kafka(), setup.topic(), group, Duration.ofMinutes(1));
            assertThat(table(inventory(setup), "main.events").rows()).isEqualTo(2);
            Result again = MaintenanceCliIT.tool(toolEnv, "flush-inlined", "--table", "events");
            assertThat(again.exit()).as(again.err()).isZero();
            assertThat(table(inventory(setup), "main.events").rows()).isZero();
            assertThat(table(inventory(setup), "main._millpond_offsets").rows()).as("--table flushes only that table")
                    .isPositive();
            assertProducedValues(setup);
            assertThat(countRejects(setup)).as("the malformed record, once").isEqualTo(1);
            assertThat(app.isAlive()).isTrue();
            assertThat(app.stop(Duration.ofSeconds(60))).isZero();
        }
    }

    /**
     * The writer's own scheduled job ({@code MILLPOND_MAINTENANCE_FLUSH_INLINED_EVERY}) flushes the trickle while the
     * pump keeps writing it: once the trickle stops, nothing is left inlined and every event is in the table once.
     */
    @Test
    void theScheduledJobFlushesWhileThePumpWrites() throws Exception {
        LakeTopic setup = LakeTopic.create("trickle-sched", 1);
        Map<String, String> env = setup.environment("FLUSH_INTERVAL_MS", "200", "MILLPOND_LOG_FORMAT", "text",
                "MILLPOND_MAINTENANCE_FLUSH_INLINED_EVERY", "2s", "MILLPOND_MAINTENANCE_MEMORY_LIMIT", "256MB");
        try (AppProcess app = AppProcess.start(env, LOGS.resolve(setup.topic() + ".log"))) {
            app.awaitLog("Assigned partitions", Duration.ofMinutes(2));
            int round = 0;
            while (flushes(app) < 2) {
                setup.produce(0, events(2, round++ < 5 ? List.of() : List.of("color")));
                Thread.sleep(300);
                assertThat(round).as("rounds before two scheduled flushes wrote parquet").isLessThan(400);
            }
            app.awaitCommittedToEnd(setup.kafka(), setup.topic(), "millpond-" + setup.topic() + "-events",
                    Duration.ofMinutes(1));
            app.await("a scheduled flush of what is still inlined", Duration.ofMinutes(1),
                    () -> inventoryUnchecked(setup).stream().allMatch(t -> t.rows() == 0));
            assertFlushed(setup);
            assertProducedValues(setup);
            assertThat(dataFileRows(setup, "events")).isEqualTo(produced.size());
            assertThat(app.stop(Duration.ofSeconds(60))).isZero();
        }
    }

    /** Scheduled flush-inlined runs of this app that wrote rows of the events table to parquet. */
    private static int flushes(AppProcess app) {
        try {
            return (int) app.logText().lines().filter(l -> l.matches(".*flush-inlined: main\\.events: [1-9][0-9]* "
                    + "row\\(s\\) written to parquet.*")).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Inlined> inventoryUnchecked(LakeTopic setup) {
        try {
            return inventory(setup);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Events with the base keys and {@code extra} ones, a random mix of text, numbers and a nested object. */
    private List<byte[]> events(int n, List<String> extra) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ObjectNode e = JSON.createObjectNode();
            long id = nextId++;
            e.put("id", id);
            e.put("name", text());
            e.put("amount", random.nextGaussian() * Math.pow(10, random.nextInt(12) - 4));
            e.put("flag", random.nextBoolean());
            e.putObject("props").put("k", text()).putArray("list").add(random.nextInt()).add(random.nextDouble());
            for (String key : extra) {
                switch (key) {
                    case "score" -> e.put(key, random.nextLong());
                    default -> e.put(key, text());
                }
            }
            produced.put(id, e);
            out.add(e.toString().getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    /** Text from ASCII, quotes and backslashes, accents, CJK and astral characters. */
    private String text() {
        int[][] ranges = {{0x20, 0x7e}, {0xc0, 0x17f}, {0x4e00, 0x4fff}, {0x1f600, 0x1f64f}, {'"', '"'}, {'\\', '\\'}};
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(20);
        for (int i = 0; i < length; i++) {
            int[] r = ranges[random.nextInt(ranges.length)];
            s.appendCodePoint(r[0] + random.nextInt(r[1] - r[0] + 1));
        }
        return s.toString();
    }

    /** Every produced event is in the table once, each value as produced (nested objects as compact JSON text). */
    private void assertProducedValues(LakeTopic setup) throws Exception {
        Map<Long, Map<String, Object>> rows = new HashMap<>();
        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM lake.main.events")) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                Map<String, Object> row = new HashMap<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.put(md.getColumnName(i), rs.getObject(i));
                }
                assertThat(rows.put(rs.getLong("id"), row)).as("id %d once", rs.getLong("id")).isNull();
            }
        }
        assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(produced.keySet());
        produced.forEach((id, e) -> {
            Map<String, Object> row = rows.get(id);
            e.fields().forEachRemaining(f -> {
                Object actual = row.get(f.getKey());
                Object expected = switch (f.getValue().getNodeType()) {
                    case NUMBER -> f.getValue().isIntegralNumber() ? (Object) f.getValue().asLong()
                            : (Object) f.getValue().asDouble();
                    case BOOLEAN -> f.getValue().asBoolean();
                    case STRING -> f.getValue().asText();
                    default -> f.getValue();
                };
                if (expected instanceof JsonNode) {
                    // A nested object is kept as compact JSON text; its numbers' spelling is the writer's own.
                    actual = readTree(String.valueOf(actual));
                }
                assertThat(actual).as("event %d, %s", id, f.getKey()).isEqualTo(expected);
            });
        });
    }

    private static JsonNode readTree(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    /** Every row with every column (the writer's _inserted_at too) as text, ordered. */
    private static List<String> contents(LakeTopic setup) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM lake.main.events ORDER BY id")) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(rs.getMetaData().getColumnName(i)).append('=').append(rs.getString(i)).append(' ');
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    /** Nothing inlined is left, and no table keeps more inlined tables than the current version's one. */
    private static void assertFlushed(LakeTopic setup) throws Exception {
        for (Inlined t : inventory(setup)) {
            assertThat(t.rows()).as(t.name()).isZero();
            assertThat(t.inlinedTables()).as(t.name()).isLessThanOrEqualTo(1);
        }
    }

    /** A live table's inlined data, read from the catalog's own tables (not through the code under test). */
    private record Inlined(String name, int inlinedTables, long rows) {
        /** The line the tool prints for it. */
        String line() {
            return name + ": " + rows + " inlined row(s) in " + inlinedTables + " catalog table(s)";
        }

        String table() {
            return name.substring(name.indexOf('.') + 1);
        }
    }

    private static List<Inlined> inventory(LakeTopic setup) throws Exception {
        Map<String, List<String>> inlinedTables = new java.util.TreeMap<>();
        try (Connection pg = Services.postgres().connect(setup.lake().catalogDatabase());
             Statement s = pg.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT s.schema_name || '.' || t.table_name, i.table_name "
                    + "FROM ducklake_inlined_data_tables i JOIN ducklake_table t ON t.table_id = i.table_id "
                    + "AND t.end_snapshot IS NULL JOIN ducklake_schema s ON s.schema_id = t.schema_id "
                    + "AND s.end_snapshot IS NULL")) {
                while (rs.next()) {
                    inlinedTables.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
                }
            }
            List<Inlined> out = new ArrayList<>();
            for (Map.Entry<String, List<String>> e : inlinedTables.entrySet()) {
                long rows = 0;
                for (String table : e.getValue()) {
                    try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
                        rs.next();
                        rows += rs.getLong(1);
                    }
                }
                out.add(new Inlined(e.getKey(), e.getValue().size(), rows));
            }
            return out;
        }
    }

    private static Inlined table(List<Inlined> inventory, String name) {
        Map<String, Inlined> byName = inventory.stream()
                .collect(Collectors.toMap(Inlined::name, Function.identity()));
        assertThat(byName).as("tables with inlined data").containsKey(name);
        return byName.get(name);
    }

    private static long dataFileRows(LakeTopic setup, String table) throws Exception {
        try (Connection pg = Services.postgres().connect(setup.lake().catalogDatabase());
             Statement s = pg.createStatement();
             ResultSet rs = s.executeQuery("SELECT coalesce(sum(df.record_count), 0) FROM ducklake_data_file df "
                     + "JOIN ducklake_table t USING (table_id) WHERE df.end_snapshot IS NULL AND t.end_snapshot IS NULL"
                     + " AND t.table_name = '" + table + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long countRejects(LakeTopic setup) throws Exception {
        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM lake.main._millpond_rejects")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** One pass of the exporter (in process: the same queries the packaged tool runs), its exposition. */
    private static String exporter(Map<String, String> env) {
        StringWriter out = new StringWriter();
        int exit = CatalogMetricsCli.command(env, new PrintWriter(out, true)).execute("--tenant", "t", "--once");
        assertThat(exit).as(out.toString()).isZero();
        return out.toString();
    }
}
