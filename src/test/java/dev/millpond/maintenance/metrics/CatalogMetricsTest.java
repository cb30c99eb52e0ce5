package dev.millpond.maintenance.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.millpond.maintenance.CompactionOptions;
import dev.millpond.maintenance.CompactionTier;
import dev.millpond.maintenance.LakeMaintenance;
import dev.millpond.maintenance.LakeSession;
import dev.millpond.maintenance.MaintenanceSettings;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.DuckDbExtensions;
import dev.millpond.testsupport.DuckDbSql;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exporter on the real stack: every built-in gauge equals the count computed independently from the catalog's
 * Postgres tables; daemon mode serves /metrics, /-/ready and /-/healthy; --once pushes and exits with the original's
 * codes; YAML queries win by name and --disable drops one.
 */
@ServiceBacked
class CatalogMetricsTest {

    private static DuckLakeStack lake;
    private static final Map<String, String> ENV = new HashMap<>();

    @BeforeAll
    static void aLakeWithHistory() throws Exception {
        lake = Services.newDuckLake();
        ENV.putAll(lake.environment());
        ENV.put("MILLPOND_DUCKDB_EXTENSION_DIR", DuckDbExtensions.directory().toAbsolutePath().toString());
        try (Connection c = lake.openQueryConnection()) {
            DuckDbSql.execute(c, "CREATE TABLE lake.main.events (id BIGINT, payload VARCHAR)");
            for (int i = 0; i < 6; i++) {
                DuckDbSql.execute(c, "INSERT INTO lake.main.events SELECT r, md5(r::VARCHAR) FROM range("
                        + (i * 100) + ", " + (i * 100 + 100) + ") t(r)");
            }
        }
        try (LakeSession s = LakeSession.open(MaintenanceSettings.fromEnvironment(ENV), "test")) {
            new LakeMaintenance(s).compact(new CompactionOptions(CompactionTier.ONE, Optional.empty(), false, 1, "1GB",
                    3, OptionalInt.empty()));
        }
        try (Connection c = lake.openQueryConnection()) {
            DuckDbSql.execute(c, "DELETE FROM lake.main.events WHERE id % 7 = 0");
            DuckDbSql.execute(c, "CREATE TABLE lake.main.gone (id INTEGER)");
            DuckDbSql.execute(c, "INSERT INTO lake.main.gone VALUES (1)");
            DuckDbSql.execute(c, "DROP TABLE lake.main.gone");
            // Small inserts are inlined into the catalog, one inlined table per schema version.
            DuckDbSql.execute(c, "CREATE TABLE lake.main.trickle (id BIGINT)");
            DuckDbSql.execute(c, "INSERT INTO lake.main.trickle VALUES (1), (2), (3)");
            DuckDbSql.execute(c, "ALTER TABLE lake.main.trickle ADD COLUMN note VARCHAR");
            DuckDbSql.execute(c, "INSERT INTO lake.main.trickle VALUES (4, 'a'), (5, 'b')");
        }
    }

    /** Rows in the inlined tables of a live table, counted table by table in Postgres. */
    private static long[] inlined(String table) throws Exception {
        long tables = 0;
        long rows = 0;
        try (Connection c = Services.postgres().connect(lake.catalogDatabase()); Statement s = c.createStatement()) {
            List<String> names = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT i.table_name FROM ducklake_inlined_data_tables i JOIN "
                    + "ducklake_table t ON t.table_id = i.table_id AND t.end_snapshot IS NULL WHERE t.table_name = '"
                    + table + "'")) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            for (String name : names) {
                tables++;
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + name)) {
                    rs.next();
                    rows += rs.getLong(1);
                }
            }
        }
        return new long[]{tables, rows};
    }

    private static long pg(String sql) throws Exception {
        try (Connection c = Services.postgres().connect(lake.catalogDatabase()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = CatalogMetricsCli.command(ENV, new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static double gauge(String exposition, String name, String... labels) {
        return AppProcess.metricIn(exposition, name, labels).orElseThrow(() ->
                new AssertionError(name + " missing in\n" + exposition));
    }

    @Test
    void builtInGaugesEqualTheCatalogsOwnCounts() throws Exception {
        Run once = run("--tenant", "acme", "--once");
        assertThat(once.exit()).as(once.err()).isZero();
        String m = once.out();
        assertThat(pg("SELECT count(*) FROM ducklake_files_scheduled_for_deletion")).isPositive();
        assertThat(gauge(m, "ducklake_pending_deletes_total")).isEqualTo(
                pg("SELECT count(*) FROM ducklake_files_scheduled_for_deletion"));
        assertThat(gauge(m, "ducklake_pending_deletes_unique_paths")).isEqualTo(
                pg("SELECT count(DISTINCT path) FROM ducklake_files_scheduled_for_deletion"));
        assertThat(gauge(m, "ducklake_pending_deletes_dup_rows")).isZero();
        assertThat(gauge(m, "ducklake_data_files_files")).isEqualTo(
                pg("SELECT count(*) FROM ducklake_data_file WHERE end_snapshot IS NULL"));
        assertThat(gauge(m, "ducklake_data_files_bytes")).isEqualTo(
                pg("SELECT sum(file_size_bytes) FROM ducklake_data_file WHERE end_snapshot IS NULL"));
        assertThat(gauge(m, "ducklake_data_files_rows")).isEqualTo(
                pg("SELECT sum(record_count) FROM ducklake_data_file WHERE end_snapshot IS NULL"));
        assertThat(gauge(m, "ducklake_delete_files_files")).isPositive().isEqualTo(
                pg("SELECT count(*) FROM ducklake_delete_file WHERE end_snapshot IS NULL"));
        assertThat(gauge(m, "ducklake_files_per_band_count", "band", "tier1")).isEqualTo(
                pg("SELECT count(*) FROM ducklake_data_file WHERE end_snapshot IS NULL AND file_size_bytes < 1048576"));
        assertThat(gauge(m, "ducklake_files_per_band_count", "band", "large")).isZero();
        assertThat(gauge(m, "ducklake_compaction_candidates_count", "tier", "1")).isEqualTo(
                gauge(m, "ducklake_files_per_band_count", "band", "tier1"));
        assertThat(gauge(m, "ducklake_snapshots_count")).isEqualTo(pg("SELECT count(*) FROM ducklake_snapshot"));
        assertThat(gauge(m, "ducklake_snapshots_newest_id")).isEqualTo(
                pg("SELECT max(snapshot_id) FROM ducklake_snapshot"));
        assertThat(gauge(m, "ducklake_snapshots_oldest_id")).isEqualTo(
                pg("SELECT min(snapshot_id) FROM ducklake_snapshot"));
        assertThat(gauge(m, "ducklake_snapshots_oldest_seconds_ago")).isBetween(0.0, 600.0);
        assertThat(gauge(m, "ducklake_tables_count", "state", "live")).isEqualTo(2);
        assertThat(gauge(m, "ducklake_tables_count", "state", "dropped")).isEqualTo(1);
        assertThat(gauge(m, "ducklake_inlined_data_tables_total")).isEqualTo(
                pg("SELECT count(*) FROM ducklake_inlined_data_tables"));
        for (String table : new String[]{"trickle", "events"}) {
            long[] inlined = inlined(table);
            assertThat(gauge(m, "ducklake_inlined_data_tables", "schema", "main", "table", table)).as(table)
                    .isEqualTo(inlined[0]);
            assertThat(gauge(m, "ducklake_inlined_data_rows", "schema", "main", "table", table)).as(table)
                    .isEqualTo(inlined[1]);
        }
        assertThat(inlined("trickle")).containsExactly(2, 5);
        assertThat(m).as("a dropped table has no per-table series").doesNotContain("table=\"gone\"");
        assertThat(gauge(m, "ducklake_files_per_partition_top20_count", "partition", "<none>")).isEqualTo(
                gauge(m, "ducklake_data_files_files"));
        assertThat(gauge(m, "ducklake_catalog_format_version", "suffix", "")).isEqualTo(1.0);
        assertThat(gauge(m, "ducklake_metrics_up", "tenant", "acme")).isEqualTo(1);
        assertThat(gauge(m, "ducklake_metrics_query_errors_total", "query", "data_files")).isZero();
        assertThat(m).contains("ducklake_metrics_query_last_success_timestamp{tenant=\"acme\",query=\"snapshots\"}");
        assertThat(m.lines().filter(l -> !l.startsWith("#"))).allMatch(l -> l.contains("tenant=\"acme\""));
    }

    /** The Grafana dashboard's lake panels read series this exporter produces (the writer's are DropInIT's). */
    @Test
    void everyLakeMetricTheDashboardQueriesIsExported() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(
                Path.of("kubernetes", "grafana", "millpond-dashboard.json").toFile());
        Set<String> queried = new TreeSet<>();
        Pattern metric = Pattern.compile("\\b(ducklake_[a-z0-9_]+)");
        for (JsonNode target : dashboard.findValues("targets")) {
            for (JsonNode t : target) {
                Matcher m = metric.matcher(t.path("expr").asText());
                while (m.find()) {
                    queried.add(m.group(1));
                }
            }
        }
        assertThat(queried).contains("ducklake_inlined_data_rows", "ducklake_inlined_data_tables");
        Run once = run("--tenant", "acme", "--once");
        assertThat(once.exit()).as(once.err()).isZero();
        for (String name : queried) {
            assertThat(AppProcess.metricIn(once.out(), name)).as(name).isPresent();
        }
    }

    @Test
    void onceExitCodes() throws Exception {
        assertThat(run("--once").exit()).as("no tenant").isEqualTo(2);
        AtomicReference<String> pushed = new AtomicReference<>();
        HttpServer gateway = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        gateway.createContext("/ok", x -> {
            pushed.set(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        gateway.createContext("/broken", x -> {
            x.sendResponseHeaders(500, -1);
            x.close();
        });
        gateway.start();
        try {
            String base = "http://127.0.0.1:" + gateway.getAddress().getPort();
            assertThat(run("--tenant", "t", "--once", "--push-url", base + "/ok").exit()).isZero();
            assertThat(pushed.get()).contains("ducklake_data_files_files{tenant=\"t\"}");
            assertThat(run("--tenant", "t", "--once", "--push-url", base + "/broken").exit()).isEqualTo(1);
        } finally {
            gateway.stop(0);
        }
        Map<String, String> badCatalog = new HashMap<>(ENV);
        badCatalog.put("DUCKLAKE_RDS_PORT", "1");
        CommandLine cli = CatalogMetricsCli.command(badCatalog, new PrintWriter(new StringWriter()));
        assertThat(cli.execute("--tenant", "t", "--once")).as("connect failure").isEqualTo(1);
        assertThat(run("--tenant", "t", "--once", "--disable", String.join(",", BuiltinQueries.all().stream()
                .map(CatalogQuery::name).toList())).exit()).as("zero successful queries").isEqualTo(1);
    }

    @Test
    void yamlQueriesWinByNameAndDisableDropsOne(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("queries.yaml");
        Files.writeString(yaml, """
                queries:
                  - name: data_files
                    sql: SELECT 42 AS files
                  - name: events_rows
                    sql: SELECT count(*) AS count FROM lake.main.events
                    interval_seconds: 60
                """);
        Run listed = run("--list-queries", "--config", yaml.toString(), "--disable", "snapshots");
        assertThat(listed.exit()).isZero();
        assertThat(listed.out()).contains("events_rows\tevery 60s").doesNotContain("snapshots\t");
        Run once = run("--tenant", "t", "--once", "--config", yaml.toString(), "--disable", "snapshots");
        assertThat(once.exit()).as(once.err()).isZero();
        assertThat(gauge(once.out(), "ducklake_data_files_files")).isEqualTo(42);
        assertThat(gauge(once.out(), "ducklake_events_rows_count")).isEqualTo(600 - 86);
        assertThat(once.out()).doesNotContain("ducklake_snapshots_count");
    }

    @Test
    void daemonServesMetricsReadinessAndHealth() throws Exception {
        CatalogMetricsCli cli = new CatalogMetricsCli(ENV, new PrintWriter(new StringWriter()));
        CommandLine command = new CommandLine(cli);
        Thread daemon = new Thread(() -> command.execute("--tenant", "d", "--port", "0"), "daemon");
        daemon.start();
        try {
            String base = "http://127.0.0.1:" + serving(cli).getAddress().getPort();
            aMinute("/-/ready", 100).until(() -> get(base + "/-/ready").statusCode() == 200);
            aMinute("ducklake_tables_count in /metrics", 100)
                    .until(() -> get(base + "/metrics").body().contains("ducklake_tables_count"));
            String metrics = get(base + "/metrics").body();
            assertThat(gauge(metrics, "ducklake_data_files_files", "tenant", "d")).isEqualTo(
                    pg("SELECT count(*) FROM ducklake_data_file WHERE end_snapshot IS NULL"));
            assertThat(get(base + "/-/healthy").statusCode()).isEqualTo(200);
        } finally {
            cli.stop.countDown();
            daemon.join(30_000);
        }
    }

    @Test
    void aQueryRunningLongerThanTheLivenessTimeoutMakesTheDaemonUnhealthy(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("slow.yaml");
        // Seconds of work on any machine, repeated every second, against a one-second liveness timeout.
        Files.writeString(yaml, """
                queries:
                  - name: slow
                    sql: SELECT count(*) AS n FROM range(3000000000) t(i) WHERE hash(i) % 7 = 0
                    interval_seconds: 1
                """);
        CatalogMetricsCli cli = new CatalogMetricsCli(ENV, new PrintWriter(new StringWriter()));
        CommandLine command = new CommandLine(cli);
        Thread daemon = new Thread(() -> command.execute("--tenant", "d", "--port", "0", "--config", yaml.toString(),
                "--liveness-timeout-seconds", "1", "--duckdb-memory-limit", "256MB"), "daemon");
        daemon.start();
        try {
            String base = "http://127.0.0.1:" + serving(cli).getAddress().getPort();
            // Connected first: a connect slower than the one-second timeout (a loaded machine) is a stale tick.
            aMinute("/-/ready", 50).until(() -> get(base + "/-/ready").statusCode() == 200);
            HttpResponse<String> health = aMinute("/-/healthy to fail", 100)
                    .until(() -> get(base + "/-/healthy"), r -> r.statusCode() != 200);
            assertThat(health.statusCode()).isEqualTo(503);
            assertThat(health.body()).startsWith("unhealthy: a query has been running for");
            assertThat(gauge(get(base + "/metrics").body(), "ducklake_metrics_liveness_failures_total", "reason",
                    "in_flight")).isPositive();
        } finally {
            cli.stop.countDown();
            daemon.join(120_000);
        }
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The daemon's HTTP server, once it has started it. */
    private static HttpServer serving(CatalogMetricsCli cli) {
        return aMinute("the daemon's server", 50).until(() -> cli.server, server -> server != null);
    }

    /** Waits up to a minute (the machine may be loaded), checking every {@code pollMillis}. */
    private static ConditionFactory aMinute(String what, long pollMillis) {
        return Await.within(java.time.Duration.ofSeconds(60), what)
                .pollInterval(java.time.Duration.ofMillis(pollMillis));
    }
}
