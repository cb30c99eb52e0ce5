package dev.millpond.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.LakeTopic;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Swapping this image under the original's StatefulSet and dashboard: the packaged app, configured with values only
 * the original's rules accept (a Python log level name, a Python int port), exports the original's series from its
 * first scrape, and every metric the shipped Grafana dashboard queries.
 */
class DropInIT {

    static final Path LOGS = Path.of("target", "e2e-logs");
    static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)\\})?\\s", Pattern.MULTILINE);
    static final Pattern LABEL_NAME = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"(?:[^\"\\\\]|\\\\.)*\"");
    /** A log line in the text format that is below CRITICAL. */
    static final Pattern BELOW_CRITICAL = Pattern.compile(
            "^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} (TRACE|DEBUG|INFO|WARN|ERROR)", Pattern.MULTILINE);

    static AppProcess app;
    static String firstScrape;
    static String laterScrape;
    /** The moments (epoch ms) before and after the traffic was produced: its records are stamped in between. */
    static long producedFrom;
    static long producedTo;

    @BeforeAll
    static void startAFreshReplica() throws Exception {
        LakeTopic setup = LakeTopic.create("dropin", 2);
        Map<String, String> env = setup.environment(
                "LOG_LEVEL", "CRITICAL", "MILLPOND_LOG_FORMAT", "text", "FLUSH_INTERVAL_MS", "500",
                "MILLPOND_TYPED_COLUMNS", "n:bigint");
        // The port as Python's int() reads it and Quarkus would not: 38123 → " 38_123 ".
        app = AppProcess.start(env, LOGS.resolve(setup.topic() + ".log"),
                port -> " " + (port / 1000) + "_" + String.format("%03d", port % 1000) + " ");
        app.await("/readyz 200 on the port MILLPOND_HTTP_PORT names", Duration.ofMinutes(2),
                () -> app.get("/readyz").status() == 200);
        firstScrape = app.metrics();

        // Then some traffic, so that the series the original creates on first use exist as well: records consumed,
        // a flush, a malformed record skipped and a value its typed column cannot hold.
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            values.add(("{\"id\":" + i + ",\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8));
        }
        values.add("{\"id\":10,\"n\":\"ten\"}".getBytes(StandardCharsets.UTF_8));
        values.add("{\"broken\":".getBytes(StandardCharsets.UTF_8));
        producedFrom = System.currentTimeMillis();
        setup.produce(0, values);
        setup.produce(1, values.subList(0, 3));
        producedTo = System.currentTimeMillis();
        app.await("14 records written", Duration.ofMinutes(2),
                () -> app.metric("millpond_records_written_total").orElse(0) >= 14);
        laterScrape = app.metrics();
    }

    @AfterAll
    static void stop() throws Exception {
        if (app != null) {
            assertThat(app.stop(Duration.ofSeconds(60))).as(app.logTail()).isZero();
            // LOG_LEVEL=CRITICAL as the original means it: a whole run, startup to shutdown, prints nothing below it.
            assertThat(BELOW_CRITICAL.matcher(app.logText()).find()).as(app.logTail()).isFalse();
            app.close();
        }
    }

    @Test
    void theFirstScrapeHasTheOriginalsSeries() throws IOException {
        Set<String> actual = series(firstScrape).stream().filter(s -> !s.startsWith("jvm_"))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> required = new TreeSet<>();
        Set<String> allowed = new TreeSet<>();
        Set<String> absent = new TreeSet<>();
        for (String line : resourceLines("/dropin/original-first-scrape.txt")) {
            String entry = line.replaceAll("\\s+#.*$", "").strip();
            if (entry.isEmpty() || entry.startsWith("#")) {
                continue;
            }
            char marker = entry.charAt(0);
            String s = normalise(entry.substring(marker == '-' || marker == '+' || marker == '?' ? 1 : 0).strip());
            switch (marker) {
                case '-' -> absent.add(s);
                case '+', '?' -> allowed.add(s);
                default -> required.add(s);
            }
        }
        assertThat(actual).as("the original's series").containsAll(required);
        assertThat(actual).as("documented absences").doesNotContainAnyElementsOf(absent);
        Set<String> unexpected = new TreeSet<>(actual);
        unexpected.removeAll(required);
        unexpected.removeAll(allowed);
        assertThat(unexpected).as("series neither the original has nor the list explains").isEmpty();
    }

    @Test
    void theProcessSeriesHaveThePrometheusClientsMeanings() {
        double rss = AppProcess.metricIn(firstScrape, "process_resident_memory_bytes").orElseThrow();
        double virtual = AppProcess.metricIn(firstScrape, "process_virtual_memory_bytes").orElseThrow();
        double start = AppProcess.metricIn(firstScrape, "process_start_time_seconds").orElseThrow();
        double openFds = AppProcess.metricIn(firstScrape, "process_open_fds").orElseThrow();
        double maxFds = AppProcess.metricIn(firstScrape, "process_max_fds").orElseThrow();
        double cpu = AppProcess.metricIn(laterScrape, "process_cpu_seconds_total").orElseThrow();
        assertThat(rss).isBetween(50e6, 4e9); // bytes, not kB or pages; a JVM with DuckDB loaded
        assertThat(virtual).isGreaterThan(rss);
        assertThat(start).isBetween(System.currentTimeMillis() / 1000.0 - 900, System.currentTimeMillis() / 1000.0);
        assertThat(openFds).isBetween(10.0, maxFds);
        assertThat(cpu).isGreaterThan(0.5); // seconds: starting a JVM and Quarkus takes more than that
    }

    @Test
    void everyMetricTheDashboardQueriesExists() throws IOException {
        JsonNode dashboard;
        try (InputStream in = Files.newInputStream(Path.of("kubernetes", "grafana", "millpond-dashboard.json"))) {
            dashboard = new ObjectMapper().readTree(in);
        }
        Set<String> queried = new TreeSet<>();
        Pattern metric = Pattern.compile("\\b((?:millpond|process|jvm)_[a-z0-9_]+)");
        List<String> panelTitles = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            panelTitles.add(panel.path("title").asText());
            for (JsonNode target : panel.path("targets")) {
                Matcher m = metric.matcher(target.path("expr").asText());
                while (m.find()) {
                    queried.add(m.group(1));
                }
            }
        }
        assertThat(panelTitles).contains("Throughput", "Consumer lag", "Freshness", "Flush size", "Flush duration",
                "Errors by type", "Records skipped by reason", "Resident memory");
        Set<String> exported = series(laterScrape).stream().map(s -> s.substring(0, s.indexOf('{')))
                .collect(Collectors.toSet());
        assertThat(exported).containsAll(queried);
    }

    /**
     * How late records land, per partition: the newest landed record's Kafka timestamp is one of the records just
     * produced, and once everything up to the log end has landed the freshness of each partition reads 0.
     */
    @Test
    void freshnessReadsZeroOnceEverythingLandedAndTheLastLandedRecordIsTheNewest() throws Exception {
        for (String partition : List.of("0", "1")) {
            double landed = AppProcess.metricIn(laterScrape, "millpond_last_landed_timestamp_seconds", "partition",
                    partition).orElseThrow(() -> new AssertionError("no last landed timestamp, partition " + partition));
            assertThat(landed).as("partition %s", partition).isBetween(producedFrom / 1000.0, producedTo / 1000.0);
            app.await("freshness 0 on partition " + partition, Duration.ofMinutes(1),
                    () -> app.metric("millpond_freshness_seconds", "partition", partition).orElse(-1) == 0);
        }
    }

    /** NOTSET lets everything through on Python's root logger; the JSON format is matched trimmed, in any case. */
    @Test
    void notsetLogsDebugLinesAsJson() throws Exception {
        LakeTopic setup = LakeTopic.create("notset", 1);
        Map<String, String> env = setup.environment(
                "LOG_LEVEL", "notset", "MILLPOND_LOG_FORMAT", " Json ");
        try (AppProcess notset = AppProcess.start(env, LOGS.resolve(setup.topic() + ".log"))) {
            notset.await("/readyz 200", Duration.ofMinutes(2), () -> notset.get("/readyz").status() == 200);
            assertThat(notset.stop(Duration.ofSeconds(60))).isZero();
            ObjectMapper json = new ObjectMapper();
            Set<String> levels = new TreeSet<>();
            for (String line : notset.logText().lines().filter(l -> l.startsWith("{")).toList()) {
                JsonNode node = json.readTree(line);
                assertThat(node.has("ts") && node.has("logger") && node.has("msg")).as(line).isTrue();
                levels.add(node.path("level").asText());
            }
            assertThat(levels).as(notset.logTail()).contains("DEBUG", "INFO");
        }
    }

    /**
     * Every line a packaged app prints from its first to its last — Quarkus's startup and shutdown lines included — is
     * a JSON object with the original's fields ({@code ts}, {@code level}, {@code logger}, {@code msg}, and
     * {@code exc} with a stack trace) and one of Python's level names; a warning reads {@code WARNING}. The text
     * format names levels the same way.
     */
    @Test
    void logLinesCarryTheOriginalsFieldsAndPythonsLevelNames() throws Exception {
        LakeTopic setup = LakeTopic.create("levels", 1);
        // An unparseable value: the pump warns about it.
        setup.produce(0, List.of("not json".getBytes(StandardCharsets.UTF_8)));
        Map<String, String> env = setup.environment("FLUSH_INTERVAL_MS", "500",
                "MILLPOND_LOG_FORMAT", "json");
        Set<String> fields = Set.of("ts", "level", "logger", "msg", "exc");
        Set<String> python = Set.of("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL");
        try (AppProcess app = AppProcess.start(env, LOGS.resolve(setup.topic() + ".log"))) {
            app.awaitLog("Skipping unparseable JSON value", Duration.ofMinutes(2));
            assertThat(app.stop(Duration.ofSeconds(60))).isZero();
            ObjectMapper json = new ObjectMapper();
            List<String> lines = app.logText().lines().filter(l -> !l.isBlank()).toList();
            Set<String> levels = new TreeSet<>();
            for (String line : lines) {
                JsonNode node = json.readTree(line);
                Set<String> keys = new TreeSet<>();
                node.fieldNames().forEachRemaining(keys::add);
                assertThat(keys).as(line).containsAll(Set.of("ts", "level", "logger", "msg")).isSubsetOf(fields);
                assertThat(node.path("ts").asText()).as(line).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
                levels.add(node.path("level").asText());
            }
            assertThat(levels).as(app.logTail()).isSubsetOf(python).contains("INFO", "WARNING");
            assertThat(json.readTree(lines.get(0)).path("level").asText()).isEqualTo("INFO");
            assertThat(lines.get(lines.size() - 1)).as("the shutdown line").contains("stopped in");
            assertThat(lines).anySatisfy(l -> assertThat(l).contains("\"level\":\"WARNING\"", "unparseable"));
        }

        Map<String, String> textEnv = new java.util.HashMap<>(env);
        textEnv.put("MILLPOND_LOG_FORMAT", "text");
        textEnv.put("KAFKA_TOPIC", Services.uniqueName("levels-text"));
        setup.kafka().createTopic(textEnv.get("KAFKA_TOPIC"), 1);
        setup.kafka().produce(textEnv.get("KAFKA_TOPIC"), 0, List.of("not json".getBytes(StandardCharsets.UTF_8)));
        try (AppProcess app = AppProcess.start(textEnv, LOGS.resolve(textEnv.get("KAFKA_TOPIC") + ".log"))) {
            app.awaitLog("Skipping unparseable JSON value", Duration.ofMinutes(2));
            assertThat(app.stop(Duration.ofSeconds(60))).isZero();
            Pattern linePrefix = Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} (\\S+) +\\[0]\\[");
            Set<String> levels = new TreeSet<>();
            for (String line : app.logText().lines().toList()) {
                Matcher m = linePrefix.matcher(line);
                if (m.find()) {
                    levels.add(m.group(1));
                }
            }
            assertThat(levels).as(app.logTail()).isSubsetOf(python).contains("INFO", "WARNING");
        }
    }

    /** {@code name{sorted label names}} of every sample in a Prometheus text exposition. */
    static Set<String> series(String exposition) {
        Set<String> out = new TreeSet<>();
        Matcher m = SAMPLE.matcher(exposition);
        while (m.find()) {
            List<String> labels = new ArrayList<>();
            if (m.group(3) != null) {
                Matcher l = LABEL_NAME.matcher(m.group(3));
                while (l.find()) {
                    labels.add(l.group(1));
                }
            }
            out.add(m.group(1) + "{" + labels.stream().sorted().collect(Collectors.joining(",")) + "}");
        }
        return out;
    }

    /** {@code name{b,a}} → {@code name{a,b}}. */
    static String normalise(String entry) {
        int brace = entry.indexOf('{');
        String labels = entry.substring(brace + 1, entry.length() - 1);
        return entry.substring(0, brace) + "{" + java.util.Arrays.stream(labels.split(",")).map(String::strip)
                .filter(x -> !x.isEmpty()).sorted().collect(Collectors.joining(",")) + "}";
    }

    static List<String> resourceLines(String name) throws IOException {
        try (InputStream in = DropInIT.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
