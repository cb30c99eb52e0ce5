package dev.millpond.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.millpond.maintenance.metrics.CatalogMetricsState;
import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.OffsetSkipReason;
import dev.millpond.observability.SkipReason;
import dev.millpond.testsupport.ServiceBacked;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static dev.millpond.config.HelmChartTest.CHART;
import static dev.millpond.config.HelmChartTest.MANY_PIPELINES;
import static dev.millpond.config.HelmChartTest.helm;
import static dev.millpond.config.HelmChartTest.template;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chart's optional objects, through the real {@code helm}: the PrometheusRule, ServiceMonitor and NetworkPolicy
 * switches and the Secret mounted as files. The three pipelines rendered with every option on must still keep every
 * deployment invariant (inherited), and the default rendering has none of these objects.
 */
@ServiceBacked
class HelmChartOptionsTest extends DeploymentInvariants {

    static final List<String> EVERYTHING_ON = List.of("-f", MANY_PIPELINES.toString(),
            "--set", "prometheusRule.enabled=true,serviceMonitor.enabled=true,networkPolicy.enabled=true",
            "--set", "secrets.asFiles=true",
            "--set", "serviceMonitor.labels.release=kube-prometheus-stack",
            "--set", "pipelines.sessions.prometheusRule.alerts.MillpondFreshnessHigh.thresholdSeconds=3600");
    static final Path RUNBOOK = Path.of("docs", "runbook.md");
    static final Set<String> ALERTS = Set.of("MillpondConsumerLagGrowing", "MillpondFreshnessHigh", "MillpondNotReady",
            "MillpondWriteErrors", "MillpondWriteHung", "MillpondRecordsRejected", "MillpondOffsetsSkipped",
            "DuckLakeMetricsExporterStale");
    /** kube-state-metrics' StatefulSet series (readiness is the kubelet's verdict, not a series of the app's). */
    static final Set<String> KUBE_STATE_METRICS = Set.of("kube_statefulset_status_replicas_ready",
            "kube_statefulset_replicas");

    private static List<JsonNode> rendered;

    @Override
    synchronized List<JsonNode> manifests() {
        if (rendered == null) {
            List<String> args = new ArrayList<>(EVERYTHING_ON);
            rendered = template(args.toArray(String[]::new));
        }
        return rendered;
    }

    private static Map<String, JsonNode> pipelines() {
        Map<String, JsonNode> pipelines = new TreeMap<>();
        parseYaml(MANY_PIPELINES).get(0).path("pipelines").fields()
                .forEachRemaining(f -> pipelines.put(f.getKey(), f.getValue()));
        return pipelines;
    }

    private JsonNode named(String kind, String name) {
        return kind(kind).stream().filter(m -> m.at("/metadata/name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(kind + " " + name + " not rendered"));
    }

    @Test
    void helmLintPassesWithEveryOptionOn() {
        List<String> args = new ArrayList<>(List.of("lint", "--strict", CHART.toString()));
        args.addAll(EVERYTHING_ON);
        HelmChartTest.Run run = helm(args.toArray(String[]::new));
        assertThat(run.exit()).as("helm %s\n%s%s", String.join(" ", args), run.stdout(), run.stderr()).isZero();
    }

    @Test
    void theNewObjectsAreOffByDefault() {
        for (List<String> values : List.of(List.<String>of(), List.of("-f", MANY_PIPELINES.toString()))) {
            Set<String> kinds = template(values.toArray(String[]::new)).stream().map(m -> m.path("kind").asText())
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(kinds).as("kinds rendered with %s", values)
                    .isSubsetOf("StatefulSet", "Service", "PodDisruptionBudget", "ConfigMap", "CronJob");
        }
    }

    /** Each switch renders its own kind and nothing else: one object per pipeline (NetworkPolicy: and per maintained). */
    @Test
    void eachSwitchRendersItsObjectPerPipeline() {
        Map<String, String> switches = Map.of("prometheusRule.enabled=true", "PrometheusRule",
                "serviceMonitor.enabled=true", "ServiceMonitor", "networkPolicy.enabled=true", "NetworkPolicy");
        switches.forEach((set, kind) -> {
            List<JsonNode> out = template("-f", MANY_PIPELINES.toString(), "--set", set);
            Set<String> extra = out.stream().map(m -> m.path("kind").asText())
                    .filter(k -> !Set.of("StatefulSet", "Service", "PodDisruptionBudget", "ConfigMap", "CronJob")
                            .contains(k)).collect(Collectors.toSet());
            assertThat(extra).as(set).containsExactly(kind);
            List<String> names = out.stream().filter(m -> m.path("kind").asText().equals(kind))
                    .map(m -> m.at("/metadata/name").asText()).sorted().toList();
            List<String> expected = new ArrayList<>(pipelines().keySet().stream().map(p -> "millpond-" + p).toList());
            if (kind.equals("NetworkPolicy")) {
                expected.addAll(List.of("millpond-events-maintenance", "millpond-sessions-maintenance"));
            }
            assertThat(names).as(set).containsExactlyInAnyOrderElementsOf(expected);
        });
    }

    // ---- the PrometheusRule ----

    record Alert(String pipeline, JsonNode rule) {
        String name() {
            return rule.path("alert").asText();
        }

        String expr() {
            return rule.path("expr").asText();
        }
    }

    private List<Alert> alerts() {
        List<Alert> all = new ArrayList<>();
        for (JsonNode rule : kind("PrometheusRule")) {
            String pipeline = rule.at("/metadata/name").asText().substring("millpond-".length());
            rule.at("/spec/groups").forEach(g -> g.path("rules").forEach(r -> all.add(new Alert(pipeline, r))));
        }
        return all;
    }

    /**
     * Every pipeline gets every alert (the exporter's only where its metrics job runs), each selecting that
     * pipeline's series, with a severity and a runbook entry that exists.
     */
    @Test
    void everyPipelineGetsItsAlertsEachWithARunbookEntry() throws IOException {
        Set<String> anchors = runbookAnchors();
        String base = parseYaml(CHART.resolve("values.yaml")).get(0).at("/prometheusRule/runbookBaseUrl").asText();
        Map<String, JsonNode> pipelines = pipelines();
        for (var entry : pipelines.entrySet()) {
            String pipeline = entry.getKey();
            JsonNode p = entry.getValue();
            boolean exporter = p.at("/maintenance/enabled").asBoolean(true); // maintenance is on in the values file
            Set<String> names = alerts().stream().filter(a -> a.pipeline().equals(pipeline)).map(Alert::name)
                    .collect(Collectors.toSet());
            Set<String> expected = new TreeSet<>(ALERTS);
            if (!exporter) {
                expected.remove("DuckLakeMetricsExporterStale");
            }
            assertThat(names).as(pipeline).containsExactlyInAnyOrderElementsOf(expected);
            String label = "pipeline=\"" + p.path("topic").asText() + "-" + p.path("table").asText() + "\"";
            for (Alert a : alerts().stream().filter(a -> a.pipeline().equals(pipeline)).toList()) {
                String what = pipeline + " " + a.name();
                assertThat(a.rule().at("/labels/severity").asText()).as(what).isIn("warning", "critical");
                String url = a.rule().at("/annotations/runbook_url").asText();
                String anchor = a.name().toLowerCase(Locale.ROOT);
                assertThat(url).as(what).isEqualTo(base + "#" + anchor);
                assertThat(anchors).as("an entry for " + what + " in " + RUNBOOK).contains(anchor);
                assertThat(a.rule().at("/annotations/summary").asText()).as(what).isNotBlank();
                if (a.name().equals("DuckLakeMetricsExporterStale")) {
                    assertThat(a.expr()).as(what).contains("tenant=\"" + pipeline + "\"");
                } else if (a.name().equals("MillpondNotReady")) {
                    assertThat(a.expr()).as(what).contains("statefulset=\"millpond-" + pipeline + "\"",
                            "namespace=\"millpond\"");
                } else {
                    assertThat(a.expr()).as(what).contains(label, "namespace=\"millpond\"");
                }
            }
        }
        // A pipeline's own block wins over the shared one.
        assertThat(alerts()).filteredOn(a -> a.name().equals("MillpondFreshnessHigh"))
                .extracting(a -> a.pipeline() + ": " + a.expr().strip())
                .contains("sessions: max by (namespace, pipeline) (millpond_freshness_seconds{namespace=\"millpond\","
                        + " pipeline=\"sessions-sessions\"}) > 3600")
                .contains("events: max by (namespace, pipeline) (millpond_freshness_seconds{namespace=\"millpond\","
                        + " pipeline=\"events-events\"}) > 900");
    }

    /** Each alert has its own switch, and the runbook's base URL is the operator's. */
    @Test
    void eachAlertHasItsOwnSwitch() {
        for (String alert : ALERTS) {
            List<JsonNode> out = template("-f", MANY_PIPELINES.toString(), "--set", "prometheusRule.enabled=true",
                    "--set", "prometheusRule.alerts." + alert + ".enabled=false",
                    "--set", "prometheusRule.runbookBaseUrl=https://wiki.example/millpond");
            List<String> names = new ArrayList<>();
            out.stream().filter(m -> m.path("kind").asText().equals("PrometheusRule"))
                    .forEach(r -> r.at("/spec/groups").forEach(g -> g.path("rules").forEach(x -> {
                        names.add(x.path("alert").asText());
                        assertThat(x.at("/annotations/runbook_url").asText()).startsWith("https://wiki.example/millpond#");
                    })));
            assertThat(names).as(alert + " off").isNotEmpty().doesNotContain(alert);
        }
    }

    /**
     * The series the alerts read are the ones the code exports (read from a real scrape of the writer's registry and
     * the exporter's exposition), or kube-state-metrics'; the error types they name exist.
     */
    @Test
    void theAlertsReadSeriesThatExist() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        MillpondMetrics metrics = new MillpondMetrics(registry, "events-events", "");
        metrics.consumerLag(0, 5);
        for (ErrorType type : ErrorType.values()) {
            metrics.error(type);
        }
        metrics.recordsRejected("json_parse", 1);
        metrics.recordsSkipped(SkipReason.JSON_PARSE, 1);
        metrics.offsetsSkipped(0, OffsetSkipReason.OUT_OF_RANGE, 1);
        metrics.writeInFlight(() -> 0);
        metrics.freshness().takenUp(0, true);
        Set<String> exported = new TreeSet<>(names(registry.scrape()));
        CatalogMetricsState exporter = new CatalogMetricsState("events");
        exporter.up(true);
        exporter.success("data_files", List.of(), 0.1, 1.7e9);
        exported.addAll(names(exporter.exposition()));

        Pattern series = Pattern.compile("\\b((?:millpond|ducklake|kube)_[a-z0-9_]+)\\b");
        Set<String> read = new TreeSet<>();
        for (Alert a : alerts()) {
            Matcher m = series.matcher(a.expr().replaceAll("\"[^\"]*\"", "\"\"")); // label values are not series
            while (m.find()) {
                read.add(m.group(1));
            }
        }
        Set<String> unknown = new TreeSet<>(read);
        unknown.removeAll(exported);
        unknown.removeAll(KUBE_STATE_METRICS);
        assertThat(unknown).as("series the alerts read that nothing exports").isEmpty();
        assertThat(read).as("the control: the alerts read exported series too")
                .contains("millpond_consumer_lag", "millpond_freshness_seconds", "millpond_errors_total",
                        "millpond_records_rejected_total", "millpond_offsets_skipped_total",
                        "millpond_write_in_flight_seconds",
                        "ducklake_metrics_query_last_success_timestamp");

        Set<String> types = Set.of(ErrorType.values()).stream().map(ErrorType::label).collect(Collectors.toSet());
        for (Alert a : alerts().stream().filter(a -> a.name().equals("MillpondWriteErrors")).toList()) {
            Matcher m = Pattern.compile("type=~\"([^\"]+)\"").matcher(a.expr());
            assertThat(m.find()).isTrue();
            assertThat(Set.of(m.group(1).split("\\|"))).isSubsetOf(types);
        }

        // Each aggregation groups by labels the series it reads carry (namespace is the scrape target's), so a
        // per-partition alert such as MillpondOffsetsSkipped names the partition and reason the writer exports.
        String exposition = registry.scrape() + exporter.exposition();
        Pattern aggregation = Pattern.compile("\\b(?:sum|max|min|avg|count) by \\(([^)]*)\\) \\(");
        int checked = 0;
        for (Alert a : alerts()) {
            Matcher m = aggregation.matcher(a.expr());
            while (m.find()) {
                String inner = balanced(a.expr(), m.end() - 1);
                Matcher name = series.matcher(inner.replaceAll("\"[^\"]*\"", "\"\""));
                while (name.find()) {
                    Set<String> carried = labelsOf(exposition, name.group(1));
                    if (carried.isEmpty()) {
                        continue; // kube-state-metrics'
                    }
                    carried.add("namespace");
                    Set<String> by = Set.of(m.group(1).split(",\\s*"));
                    assertThat(carried).as(a.name() + " groups " + name.group(1) + " by " + by).containsAll(by);
                    checked++;
                }
            }
        }
        assertThat(checked).as("aggregations checked").isPositive();
        assertThat(labelsOf(exposition, "millpond_offsets_skipped_total")).contains("partition", "reason");
    }

    /** The text of the parenthesised expression that opens at {@code open}, without its parentheses. */
    private static String balanced(String expr, int open) {
        int depth = 0;
        for (int i = open; i < expr.length(); i++) {
            char c = expr.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return expr.substring(open + 1, i);
            }
        }
        throw new AssertionError("unbalanced parentheses in " + expr);
    }

    /** The label names a series carries in a Prometheus text exposition (empty when it is not there). */
    private static Set<String> labelsOf(String exposition, String series) {
        Set<String> labels = new TreeSet<>();
        Pattern label = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"");
        exposition.lines().filter(l -> l.startsWith(series + "{")).forEach(l -> {
            Matcher m = label.matcher(l.substring(series.length(), l.indexOf('}')));
            while (m.find()) {
                labels.add(m.group(1));
            }
        });
        return labels;
    }

    /** Metric names of a Prometheus text exposition. */
    static Set<String> names(String exposition) {
        return exposition.lines().filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> l.split("[{ ]", 2)[0]).collect(Collectors.toCollection(TreeSet::new));
    }

    /** GitHub's anchors of the runbook's headings (lower case, spaces to dashes, punctuation dropped). */
    static Set<String> runbookAnchors() throws IOException {
        Set<String> anchors = new TreeSet<>();
        for (String line : Files.readAllLines(RUNBOOK)) {
            if (line.startsWith("#")) {
                anchors.add(line.replaceFirst("^#+\\s*", "").strip().toLowerCase(Locale.ROOT)
                        .replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'));
            }
        }
        return anchors;
    }

    /** docs/operating.md leads to the runbook. */
    @Test
    void theOperatingGuideLinksTheRunbook() throws IOException {
        assertThat(Files.readString(Path.of("docs", "operating.md"))).contains("(runbook.md)");
    }

    // ---- the ServiceMonitor ----

    @Test
    void eachServiceMonitorScrapesItsPipelinesServiceOnly() {
        for (String pipeline : pipelines().keySet()) {
            JsonNode monitor = named("ServiceMonitor", "millpond-" + pipeline);
            assertThat(monitor.at("/metadata/labels/release").asText()).isEqualTo("kube-prometheus-stack");
            assertThat(monitor.at("/spec/namespaceSelector/matchNames")).extracting(JsonNode::asText)
                    .containsExactly("millpond");
            List<JsonNode> selected = kind("Service").stream()
                    .filter(s -> matches(monitor.at("/spec/selector/matchLabels"), s.at("/metadata/labels"))).toList();
            assertThat(selected).extracting(s -> s.at("/metadata/name").asText()).containsExactly("millpond-" + pipeline);
            JsonNode endpoint = monitor.at("/spec/endpoints/0");
            assertThat(endpoint.path("path").asText()).isEqualTo("/metrics");
            assertThat(selected.get(0).at("/spec/ports").findValuesAsText("name")).contains(endpoint.path("port").asText());
        }
    }

    // ---- the NetworkPolicy ----

    /**
     * The writer's policy selects exactly its pods, admits only the metrics port from the configured peers, and lets
     * out only the four configured destinations; the maintenance policy selects exactly the pipeline's Jobs.
     */
    @Test
    void eachNetworkPolicyHoldsItsPodsToTheConfiguredPeers() {
        JsonNode np = parseYaml(CHART.resolve("values.yaml")).get(0).path("networkPolicy");
        for (String pipeline : pipelines().keySet()) {
            JsonNode policy = named("NetworkPolicy", "millpond-" + pipeline);
            List<String> selected = workloads().stream()
                    .filter(w -> matches(policy.at("/spec/podSelector/matchLabels"), podLabels(w))).map(DeploymentInvariants::name)
                    .toList();
            assertThat(selected).containsExactly("StatefulSet millpond-" + pipeline);
            assertThat(policy.at("/spec/policyTypes")).extracting(JsonNode::asText).containsExactly("Ingress", "Egress");
            JsonNode ingress = policy.at("/spec/ingress");
            assertThat(ingress.size()).isEqualTo(1);
            assertThat(ingress.at("/0/from")).isEqualTo(np.path("metricsFrom"));
            assertThat(ingress.at("/0/ports").toString()).isEqualTo("[{\"port\":8000,\"protocol\":\"TCP\"}]");
            JsonNode egress = policy.at("/spec/egress");
            assertThat(egress.size()).isEqualTo(4);
            for (int i = 0; i < 4; i++) {
                JsonNode expected = np.at("/egress/" + List.of("kafka", "catalog", "objectStore", "dns").get(i));
                assertThat(egress.get(i).path("to")).isEqualTo(expected.path("to"));
                assertThat(egress.get(i).path("ports")).isEqualTo(expected.path("ports"));
            }
        }
        for (String pipeline : List.of("events", "sessions")) {
            JsonNode policy = named("NetworkPolicy", "millpond-" + pipeline + "-maintenance");
            List<JsonNode> jobs = workloads().stream()
                    .filter(w -> matches(policy.at("/spec/podSelector/matchLabels"), podLabels(w))).toList();
            assertThat(jobs).hasSize(6).allSatisfy(j -> assertThat(j.path("kind").asText()).isEqualTo("CronJob"));
            assertThat(policy.at("/spec/ingress").size()).isZero();
            assertThat(policy.at("/spec/egress").size()).isEqualTo(4);
        }
    }

    /** An empty list of peers or ports means "everything" to Kubernetes: the render refuses it. */
    @Test
    void aPolicyThatWouldAllowEverythingFailsTheRender() {
        Map<String, String> refused = Map.of(
                "networkPolicy.metricsFrom=null", "networkPolicy.metricsFrom is empty",
                "networkPolicy.egress.kafka.to=null", "networkPolicy.egress.kafka needs both `to` and `ports`",
                "networkPolicy.egress.catalog.ports=null", "networkPolicy.egress.catalog needs both",
                "networkPolicy.egress.extra[0].ports[0].port=443", "networkPolicy.egress.extra: every rule needs both");
        refused.forEach((set, message) -> {
            HelmChartTest.Run run = helm("template", "lake", CHART.toString(), "--set", "networkPolicy.enabled=true",
                    "--set", set);
            assertThat(run.exit()).as(set).isNotZero();
            assertThat(run.stderr()).as(set).contains(message);
        });
        assertThat(helm("template", "lake", CHART.toString(), "--set", "networkPolicy.enabled=true").exit()).isZero();
    }

    // ---- the Secret as files ----

    /**
     * With {@code secrets.asFiles}, no workload takes the Secret as variables: it is mounted read-only, readable by the
     * pod's group only, and each key is passed as a {@code <KEY>_FILE} the app reads, for the example Secret's keys.
     */
    @Test
    void theSecretIsMountedAsFilesTheAppReads() {
        Set<String> keys = new TreeSet<>();
        parseYaml(EXAMPLE_SECRET).get(0).path("stringData").fieldNames().forEachRemaining(keys::add);
        Map<String, String> secretNames = new TreeMap<>();
        pipelines().forEach((name, p) -> secretNames.put(name, p.path("secretName").asText("millpond-" + name
                + "-secrets")));
        for (JsonNode w : workloads()) {
            String pipeline = podLabels(w).path("app.kubernetes.io/instance").asText();
            JsonNode c = containers(w).get(0);
            assertThat(c.path("envFrom").findValues("secretRef")).as(name(w)).isEmpty();
            assertThat(podSpec(w).at("/securityContext/fsGroup").asInt()).as(name(w)).isEqualTo(1001);
            JsonNode volume = null;
            for (JsonNode v : podSpec(w).path("volumes")) {
                if (v.has("secret")) {
                    volume = v;
                }
            }
            assertThat(volume).as(name(w)).isNotNull();
            assertThat(volume.at("/secret/secretName").asText()).as(name(w)).isEqualTo(secretNames.get(pipeline));
            assertThat(volume.at("/secret/defaultMode").asInt()).as(name(w)).isEqualTo(0440);
            String volumeName = volume.path("name").asText();
            JsonNode mount = null;
            for (JsonNode m : c.path("volumeMounts")) {
                if (m.path("name").asText().equals(volumeName)) {
                    mount = m;
                }
            }
            assertThat(mount).as(name(w)).isNotNull();
            assertThat(mount.path("readOnly").asBoolean()).as(name(w)).isTrue();
            Map<String, String> files = new TreeMap<>();
            env(c).forEach((k, v) -> {
                if (k.endsWith(SecretFiles.SUFFIX)) {
                    files.put(k.substring(0, k.length() - SecretFiles.SUFFIX.length()), v);
                }
            });
            assertThat(files.keySet()).as(name(w)).isEqualTo(keys);
            String path = mount.path("mountPath").asText();
            files.forEach((k, v) -> {
                assertThat(v).as(name(w) + " " + k).isEqualTo(path + "/" + k);
                assertThat(SecretFiles.accepts(k)).as(k + " is read from a file").isTrue();
            });
        }
    }

    /** The chart lets a key be mounted as a file exactly when the app reads that variable from a file. */
    @Test
    void theChartsFileRuleIsTheApps() {
        List<String> names = new ArrayList<>(SecretFiles.VARIABLES);
        names.addAll(List.of("KAFKA_CONSUMER_SASL_PASSWORD", "KAFKA_CONSUMER_SSL_KEY_PEM", "KAFKA_CONSUMER_SASL_USERNAME",
                "DUCKLAKE_RDS_USERNAME", "AWS_SECRET_ACCESS_KEY", "HOGLAKE_TOKEN", "KAFKA_CONSUMER_SSL_CA_LOCATION"));
        for (String name : names) {
            HelmChartTest.Run run = helm("template", "lake", CHART.toString(), "--set", "secrets.asFiles=true",
                    "--set", "secrets.keys={" + name + "}");
            if (SecretFiles.accepts(name)) {
                assertThat(run.exit()).as(name + ": " + run.stderr()).isZero();
            } else {
                assertThat(run.exit()).as(name).isNotZero();
                assertThat(run.stderr()).as(name).contains("millpond does not read " + name + " from a file");
            }
        }
        assertThat(names).anyMatch(SecretFiles::accepts).anyMatch(n -> !SecretFiles.accepts(n));
    }
}
