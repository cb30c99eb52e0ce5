package dev.millpond.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.millpond.observability.OtlpLogSettings;
import dev.millpond.observability.PumpHealth;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every manifest in {@code kubernetes/}, parsed, against the invariants the app relies on. Tests invariants, not
 * sizes: memory, CPU and JVM flags are free to change.
 */
class KubernetesManifestsTest {

    /** The app's liveness verdict turns 503 once the loop has not polled for this long (480 s). */
    static final int MAX_POLL_AGE_S = (int) PumpHealth.MAX_POLL_AGE_SECONDS;
    /**
     * The longest orderly shutdown: the poll in progress (at most 60 s) and then the final flush's write ladder
     * (three attempts, sleeps up to 1.25 s and 2.5 s) and commit ladder (sleeps 0.5 s and 1 s), budgeted at 60 s.
     */
    static final int WORST_SHUTDOWN_S = 120;
    /** Variables that are read outside the config loader: by the log exporter, by Quarkus, by the JVM. */
    static final Set<String> READ_ELSEWHERE = Set.of(OtlpLogSettings.TOKEN, OtlpLogSettings.ENDPOINT,
            OtlpLogSettings.NAMESPACE, OtlpLogSettings.INSTANCE_ID, OtlpLogSettings.VERSION, "OTEL_RESOURCE_ATTRIBUTES",
            "MILLPOND_DUCKDB_EXTENSION_DIR", "JAVA_OPTS", "JAVA_OPTS_APPEND", "JAVA_TOOL_OPTIONS");

    static final List<JsonNode> MANIFESTS = new ArrayList<>();

    @BeforeAll
    static void parseEveryManifest() throws IOException {
        YAMLMapper yaml = new YAMLMapper();
        try (Stream<Path> files = Files.list(Path.of("kubernetes"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                    .sorted().toList()) {
                try (MappingIterator<JsonNode> docs = yaml.readerFor(JsonNode.class).readValues(f.toFile())) {
                    docs.forEachRemaining(d -> {
                        if (!d.isNull() && !d.isMissingNode()) {
                            MANIFESTS.add(d);
                        }
                    });
                }
            }
        }
        assertThat(MANIFESTS).extracting(m -> m.path("kind").asText())
                .contains("StatefulSet", "ConfigMap", "Secret", "Service", "PodDisruptionBudget");
    }

    static List<JsonNode> kind(String kind) {
        return MANIFESTS.stream().filter(m -> m.path("kind").asText().equals(kind)).toList();
    }

    static JsonNode container(JsonNode statefulSet) {
        JsonNode containers = statefulSet.at("/spec/template/spec/containers");
        assertThat(containers.size()).isEqualTo(1);
        return containers.get(0);
    }

    static Map<String, String> env(JsonNode container) {
        Map<String, String> env = new HashMap<>();
        for (JsonNode e : container.path("env")) {
            env.put(e.path("name").asText(), e.has("value") ? e.path("value").asText() : null);
        }
        return env;
    }

    /** The ConfigMap and Secret a container takes its environment from, by name. */
    static Map<String, String> envFrom(JsonNode container) {
        Map<String, String> env = new HashMap<>();
        for (JsonNode from : container.path("envFrom")) {
            String kind = from.has("configMapRef") ? "ConfigMap" : "Secret";
            String name = from.path(from.has("configMapRef") ? "configMapRef" : "secretRef").path("name").asText();
            JsonNode source = kind(kind).stream().filter(m -> m.at("/metadata/name").asText().equals(name))
                    .findFirst().orElseThrow(() -> new AssertionError(kind + " " + name + " is not in kubernetes/"));
            for (String field : List.of("data", "stringData")) {
                source.path(field).fields().forEachRemaining(f -> env.put(f.getKey(), f.getValue().asText()));
            }
        }
        return env;
    }

    @Test
    void replicasEqualReplicaCount() {
        for (JsonNode sts : kind("StatefulSet")) {
            String replicaCount = env(container(sts)).get("REPLICA_COUNT");
            assertThat(replicaCount).as("REPLICA_COUNT beside spec.replicas").isNotNull();
            assertThat(PythonInt.parseInt("REPLICA_COUNT", replicaCount)).isEqualTo(sts.at("/spec/replicas").asInt());
        }
    }

    @Test
    void probesHitTheAppsPathsOnItsPortWithinTheLivenessWindow() {
        for (JsonNode sts : kind("StatefulSet")) {
            JsonNode c = container(sts);
            Map<String, String> all = new HashMap<>(envFrom(c));
            all.putAll(env(c));
            int appPort = ConfigLoader.httpPort(new Env(all));
            Map<String, Integer> ports = new HashMap<>();
            c.path("ports").forEach(p -> ports.put(p.path("name").asText(), p.path("containerPort").asInt()));
            Map<String, String> paths = Map.of("startupProbe", "/healthz", "livenessProbe", "/healthz",
                    "readinessProbe", "/readyz");
            paths.forEach((probe, path) -> {
                JsonNode p = c.path(probe);
                assertThat(p.isMissingNode()).as(probe).isFalse();
                assertThat(p.at("/httpGet/path").asText()).as(probe).isEqualTo(path);
                JsonNode port = p.at("/httpGet/port");
                assertThat(port.isInt() ? port.asInt() : ports.get(port.asText())).as(probe + " port")
                        .isEqualTo(appPort);
                int period = p.path("periodSeconds").asInt(10);
                int timeout = p.path("timeoutSeconds").asInt(1);
                int failures = p.path("failureThreshold").asInt(3);
                // The probes answer from memory; a timeout near the period would stack requests up.
                assertThat(timeout).as(probe + " timeout").isBetween(1, period - 1);
                // Kubernetes acts on the app's own verdict, and within the app's window: a pod that stopped polling
                // is restarted at most 2 × 480 s after its last poll; a slow start gets at least a minute.
                assertThat(period * failures).as(probe + " failure window").isLessThanOrEqualTo(MAX_POLL_AGE_S);
            });
            JsonNode startup = c.path("startupProbe");
            assertThat(startup.path("periodSeconds").asInt(10) * startup.path("failureThreshold").asInt(3))
                    .as("startup window").isGreaterThanOrEqualTo(60);
            for (JsonNode svc : kind("Service")) {
                for (JsonNode p : svc.at("/spec/ports")) {
                    JsonNode target = p.path("targetPort");
                    assertThat(target.isInt() ? target.asInt() : ports.get(target.asText())).isEqualTo(appPort);
                }
                String scrapePort = svc.at("/metadata/annotations/prometheus.io~1port").asText(null);
                if (scrapePort != null) {
                    assertThat(Integer.parseInt(scrapePort)).isEqualTo(appPort);
                    assertThat(svc.at("/metadata/annotations/prometheus.io~1path").asText()).isEqualTo("/metrics");
                }
            }
        }
    }

    @Test
    void theTerminationGraceOutlastsTheWorstShutdown() {
        for (JsonNode sts : kind("StatefulSet")) {
            assertThat(sts.at("/spec/template/spec/terminationGracePeriodSeconds").asInt(30))
                    .isGreaterThan(WORST_SHUTDOWN_S);
        }
    }

    /** A misspelt or foreign variable in a manifest would be silently ignored: every name must be one the app reads. */
    @Test
    void everyVariableIsOneTheAppReads() {
        for (JsonNode sts : kind("StatefulSet")) {
            JsonNode c = container(sts);
            Map<String, String> all = new HashMap<>(envFrom(c));
            Map<String, String> direct = env(c);
            all.putAll(direct);
            // Values Kubernetes fills in at run time (fieldRef) get what they would hold in pod 0.
            direct.forEach((k, v) -> {
                if (v == null) {
                    all.put(k, sts.at("/metadata/name").asText() + "-0");
                }
            });
            Set<String> known = new TreeSet<>(ConfigLoader.variablesRead(all));
            known.addAll(READ_ELSEWHERE);
            Set<String> unknown = new TreeSet<>(all.keySet());
            unknown.removeAll(known);
            assertThat(unknown).as("variables in kubernetes/ that nothing reads").isEmpty();
        }
    }

    @Test
    void selectorsMatchThePodsAndNothingElse() {
        for (JsonNode sts : kind("StatefulSet")) {
            JsonNode podLabels = sts.at("/spec/template/metadata/labels");
            List<JsonNode> selectors = new ArrayList<>();
            selectors.add(sts.at("/spec/selector/matchLabels"));
            kind("PodDisruptionBudget").forEach(p -> selectors.add(p.at("/spec/selector/matchLabels")));
            kind("Service").forEach(s -> selectors.add(s.at("/spec/selector")));
            for (JsonNode selector : selectors) {
                assertThat(selector.size()).isPositive();
                selector.fields().forEachRemaining(f ->
                        assertThat(podLabels.path(f.getKey()).asText()).as(f.getKey()).isEqualTo(f.getValue().asText()));
            }
            assertThat(kind("Service")).anyMatch(s -> s.at("/metadata/name").asText()
                    .equals(sts.at("/spec/serviceName").asText()));
        }
    }
}
