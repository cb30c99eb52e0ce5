package dev.millpond.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.millpond.observability.PumpHealth;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The invariants the app relies on, for any set of manifests that deploys it: the plain ones in {@code kubernetes/}
 * and what the Helm chart renders share this one set of checks. Tests invariants, not sizes: memory, CPU and JVM
 * flags are free to change (as long as a memory limit is there).
 */
abstract class DeploymentInvariants {

    /** The app's liveness verdict turns 503 once the loop has not polled for this long (480 s). */
    static final int MAX_POLL_AGE_S = (int) PumpHealth.MAX_POLL_AGE_SECONDS;
    /**
     * The longest orderly shutdown: the poll in progress (at most 60 s) and then the final flush's write ladder
     * (three attempts, sleeps up to 1.25 s and 2.5 s) and commit ladder (sleeps 0.5 s and 1 s), budgeted at 60 s.
     */
    static final int WORST_SHUTDOWN_S = 120;
    /** Variables read outside ConfigLoader: by the log export's settings, the process's own settings, the JVM. */
    static final Set<String> READ_ELSEWHERE = Set.of(OtlpLogSettings.TOKEN, OtlpLogSettings.ENDPOINT,
            OtlpLogSettings.NAMESPACE, OtlpLogSettings.INSTANCE_ID, OtlpLogSettings.VERSION, "OTEL_RESOURCE_ATTRIBUTES",
            "MILLPOND_DUCKDB_EXTENSION_DIR", "JAVA_OPTS", "JAVA_OPTS_APPEND", "JAVA_TOOL_OPTIONS");
    /**
     * The Secret every pipeline reads is created out of band; its keys are the ones this example documents (it lives
     * outside the applied directory, so an apply cannot overwrite the real one with its placeholders).
     */
    static final Path EXAMPLE_SECRET = Path.of("kubernetes", "examples", "secret.example.yaml");
    /** Where each kind of workload keeps its pod spec. */
    static final Map<String, String> POD_SPEC = Map.of("StatefulSet", "/spec/template/spec",
            "Deployment", "/spec/template/spec", "DaemonSet", "/spec/template/spec", "ReplicaSet", "/spec/template/spec",
            "Job", "/spec/template/spec", "CronJob", "/spec/jobTemplate/spec/template/spec", "Pod", "/spec");

    /** Every document the deployment applies. */
    abstract List<JsonNode> manifests();

    static List<JsonNode> parseYaml(String text) {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = new YAMLMapper().readerFor(JsonNode.class).readValues(text)) {
            it.forEachRemaining(d -> {
                if (!d.isNull() && !d.isMissingNode() && !d.isEmpty()) {
                    docs.add(d);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    static List<JsonNode> parseYaml(Path file) {
        try {
            return parseYaml(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<JsonNode> kind(String kind) {
        return manifests().stream().filter(m -> m.path("kind").asText().equals(kind)).toList();
    }

    List<JsonNode> workloads() {
        return manifests().stream().filter(m -> POD_SPEC.containsKey(m.path("kind").asText())).toList();
    }

    static JsonNode podSpec(JsonNode workload) {
        return workload.at(POD_SPEC.get(workload.path("kind").asText()));
    }

    static JsonNode podLabels(JsonNode workload) {
        String spec = POD_SPEC.get(workload.path("kind").asText());
        return workload.at(spec.substring(0, spec.length() - "/spec".length()) + "/metadata/labels");
    }

    static String name(JsonNode manifest) {
        return manifest.path("kind").asText() + " " + manifest.at("/metadata/name").asText();
    }

    static JsonNode container(JsonNode statefulSet) {
        JsonNode containers = podSpec(statefulSet).path("containers");
        assertThat(containers.size()).as(name(statefulSet) + " containers").isEqualTo(1);
        return containers.get(0);
    }

    static List<JsonNode> containers(JsonNode workload) {
        List<JsonNode> all = new ArrayList<>();
        podSpec(workload).path("initContainers").forEach(all::add);
        podSpec(workload).path("containers").forEach(all::add);
        return all;
    }

    static Map<String, String> env(JsonNode container) {
        Map<String, String> env = new HashMap<>();
        for (JsonNode e : container.path("env")) {
            env.put(e.path("name").asText(), e.has("value") ? e.path("value").asText() : null);
        }
        return env;
    }

    /** The ConfigMap and Secret a container takes its environment from, by name. */
    Map<String, String> envFrom(JsonNode container) {
        Map<String, String> env = new HashMap<>();
        for (JsonNode from : container.path("envFrom")) {
            String kind = from.has("configMapRef") ? "ConfigMap" : "Secret";
            String name = from.path(from.has("configMapRef") ? "configMapRef" : "secretRef").path("name").asText();
            JsonNode source = kind(kind).stream().filter(m -> m.at("/metadata/name").asText().equals(name))
                    .findFirst().orElse(null);
            if (source == null) {
                assertThat(kind).as("ConfigMap " + name + " is not among the manifests").isEqualTo("Secret");
                source = parseYaml(EXAMPLE_SECRET).get(0);
            }
            for (String field : List.of("data", "stringData")) {
                source.path(field).fields().forEachRemaining(f -> env.put(f.getKey(), f.getValue().asText()));
            }
        }
        return env;
    }

    @Test
    void replicasEqualReplicaCount() {
        assertThat(kind("StatefulSet")).isNotEmpty();
        for (JsonNode sts : kind("StatefulSet")) {
            String replicaCount = env(container(sts)).get("REPLICA_COUNT");
            assertThat(replicaCount).as("REPLICA_COUNT beside spec.replicas").isNotNull();
            assertThat(PythonInt.parseInt("REPLICA_COUNT", replicaCount)).as(name(sts))
                    .isEqualTo(sts.at("/spec/replicas").asInt());
        }
        // The offsets audit reads the pipeline's REPLICA_COUNT too: it must be the writer's.
        for (JsonNode job : workloads()) {
            for (JsonNode c : containers(job)) {
                String replicaCount = env(c).get("REPLICA_COUNT");
                if (replicaCount != null && !job.path("kind").asText().equals("StatefulSet")) {
                    JsonNode writer = writerOf(job);
                    assertThat(PythonInt.parseInt("REPLICA_COUNT", replicaCount)).as(name(job) + " vs " + name(writer))
                            .isEqualTo(writer.at("/spec/replicas").asInt());
                }
            }
        }
    }

    /** The StatefulSet of the same pipeline (app.kubernetes.io/instance). */
    JsonNode writerOf(JsonNode workload) {
        String instance = podLabels(workload).path("app.kubernetes.io/instance").asText();
        return kind("StatefulSet").stream()
                .filter(s -> podLabels(s).path("app.kubernetes.io/instance").asText().equals(instance)).findFirst()
                .orElseThrow(() -> new AssertionError("no StatefulSet for " + name(workload)));
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
            assertThat(podSpec(sts).path("terminationGracePeriodSeconds").asInt(30)).as(name(sts))
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
            // A secret mounted as a file: <NAME>_FILE is read when the app accepts <NAME> from a file, and the
            // loader then sees <NAME> itself.
            Set<String> files = new TreeSet<>();
            all.keySet().stream().filter(k -> k.endsWith(SecretFiles.SUFFIX)).forEach(k -> {
                String secret = k.substring(0, k.length() - SecretFiles.SUFFIX.length());
                if (SecretFiles.accepts(secret)) {
                    files.add(k);
                }
            });
            files.forEach(k -> all.put(k.substring(0, k.length() - SecretFiles.SUFFIX.length()), "from-a-file"));
            Set<String> known = new TreeSet<>(ConfigLoader.variablesRead(all));
            known.addAll(READ_ELSEWHERE);
            known.addAll(files);
            Set<String> unknown = new TreeSet<>(all.keySet());
            unknown.removeAll(known);
            assertThat(unknown).as("variables of " + name(sts) + " that nothing reads").isEmpty();
        }
    }

    /**
     * Each StatefulSet's selector, Service and PodDisruptionBudget select its pods and no other workload's: not a
     * second pipeline's, and not the maintenance Jobs' (a PDB over Job pods, or a Service endpoint on one, is wrong).
     */
    @Test
    void selectorsMatchThePodsAndNothingElse() {
        List<JsonNode> selectors = new ArrayList<>();
        kind("PodDisruptionBudget").forEach(p -> selectors.add(p.at("/spec/selector/matchLabels")));
        kind("Service").forEach(s -> selectors.add(s.at("/spec/selector")));
        kind("StatefulSet").forEach(s -> selectors.add(s.at("/spec/selector/matchLabels")));
        for (JsonNode selector : selectors) {
            assertThat(selector.size()).as("selector " + selector).isPositive();
            List<String> selected = workloads().stream().filter(w -> matches(selector, podLabels(w)))
                    .map(DeploymentInvariants::name).toList();
            assertThat(selected).as("workloads selected by " + selector).hasSize(1);
            assertThat(selected.get(0)).startsWith("StatefulSet ");
        }
        for (JsonNode sts : kind("StatefulSet")) {
            assertThat(matches(sts.at("/spec/selector/matchLabels"), podLabels(sts))).as(name(sts)).isTrue();
            JsonNode service = kind("Service").stream()
                    .filter(s -> s.at("/metadata/name").asText().equals(sts.at("/spec/serviceName").asText()))
                    .findFirst().orElseThrow(() -> new AssertionError("no governing Service for " + name(sts)));
            assertThat(matches(service.at("/spec/selector"), podLabels(sts))).as(name(service)).isTrue();
        }
    }

    static boolean matches(JsonNode selector, JsonNode labels) {
        List<Boolean> each = new ArrayList<>();
        selector.fields().forEachRemaining(f -> each.add(labels.path(f.getKey()).asText("\0").equals(f.getValue().asText())));
        return !each.isEmpty() && !each.contains(false);
    }

    /** Every workload runs locked down, so a regression in any one of them (a CronJob added later, say) fails here. */
    @Test
    void everyWorkloadIsLockedDown() {
        assertThat(workloads()).isNotEmpty();
        for (JsonNode w : workloads()) {
            assertThat(lockDownViolations(w)).as(name(w)).isEmpty();
        }
    }

    /** What a workload gets wrong: non-root, read-only root, no capabilities, no escalation, seccomp, memory limit. */
    static List<String> lockDownViolations(JsonNode workload) {
        List<String> wrong = new ArrayList<>();
        JsonNode pod = podSpec(workload);
        JsonNode podSecurity = pod.path("securityContext");
        if (!pod.path("serviceAccountName").isTextual() && pod.path("automountServiceAccountToken").asBoolean(true)) {
            wrong.add("mounts a service account token it has no use for (automountServiceAccountToken: false)");
        }
        if (containers(workload).isEmpty()) {
            wrong.add("no containers");
        }
        for (JsonNode c : containers(workload)) {
            String who = c.path("name").asText() + ": ";
            JsonNode security = c.path("securityContext");
            if (!effective(security, podSecurity, "runAsNonRoot").asBoolean(false)) {
                wrong.add(who + "runAsNonRoot is not true");
            }
            if (effective(security, podSecurity, "runAsUser").asInt(-1) == 0) {
                wrong.add(who + "runs as uid 0");
            }
            if (!security.path("readOnlyRootFilesystem").asBoolean(false)) {
                wrong.add(who + "root filesystem is not read-only");
            }
            if (security.path("allowPrivilegeEscalation").asBoolean(true)) {
                wrong.add(who + "allowPrivilegeEscalation is not false");
            }
            if (security.path("privileged").asBoolean(false)) {
                wrong.add(who + "privileged");
            }
            List<String> dropped = new ArrayList<>();
            security.at("/capabilities/drop").forEach(d -> dropped.add(d.asText()));
            if (!dropped.contains("ALL") || !security.at("/capabilities/add").isEmpty()) {
                wrong.add(who + "capabilities are not drop [ALL]");
            }
            if (!effective(security, podSecurity, "seccompProfile").path("type").asText().equals("RuntimeDefault")) {
                wrong.add(who + "seccompProfile is not RuntimeDefault");
            }
            if (c.at("/resources/limits/memory").asText().isEmpty()) {
                wrong.add(who + "no memory limit");
            }
            for (JsonNode e : c.path("env")) {
                if (SecretVariables.isSecret(e.path("name").asText()) && e.has("value")) {
                    wrong.add(who + e.path("name").asText() + " is a secret given as a literal value");
                }
            }
        }
        return wrong;
    }

    private static JsonNode effective(JsonNode container, JsonNode pod, String field) {
        return container.has(field) ? container.path(field) : pod.path(field);
    }

    /** The deployment never carries a secret value: no Secret object, no secret-named key in a ConfigMap. */
    @Test
    void noSecretValueIsShipped() {
        assertThat(kind("Secret")).as("Secrets are created out of band; applying one would overwrite the real one")
                .isEmpty();
        for (JsonNode cm : kind("ConfigMap")) {
            List<String> secretKeys = new ArrayList<>();
            cm.path("data").fieldNames().forEachRemaining(k -> {
                if (SecretVariables.isSecret(k)) {
                    secretKeys.add(k);
                }
            });
            assertThat(secretKeys).as(name(cm) + " keys that belong in the Secret").isEmpty();
        }
        for (JsonNode w : workloads()) {
            for (JsonNode c : containers(w)) {
                assertThat(readsASecret(w, c)).as(name(w) + " reads a Secret").isTrue();
            }
        }
    }

    /** As variables (envFrom), or as files: a Secret volume mounted into the container. */
    static boolean readsASecret(JsonNode workload, JsonNode container) {
        if (!container.path("envFrom").findValues("secretRef").isEmpty()) {
            return true;
        }
        Set<String> secretVolumes = new TreeSet<>();
        podSpec(workload).path("volumes").forEach(v -> {
            if (v.has("secret")) {
                secretVolumes.add(v.path("name").asText());
            }
        });
        for (JsonNode mount : container.path("volumeMounts")) {
            if (secretVolumes.contains(mount.path("name").asText())) {
                return true;
            }
        }
        return false;
    }

    /** The lock-down check can fail: each way of loosening a workload is caught. */
    @Test
    void theLockDownCheckCatchesEachLoosening() {
        Map<String, java.util.function.Consumer<ObjectNode>> loosenings = new java.util.LinkedHashMap<>();
        loosenings.put("runAsNonRoot", c -> c.with("securityContext").put("runAsNonRoot", false));
        loosenings.put("root uid", c -> c.with("securityContext").put("runAsUser", 0));
        loosenings.put("writable root", c -> c.with("securityContext").put("readOnlyRootFilesystem", false));
        loosenings.put("escalation", c -> c.with("securityContext").remove("allowPrivilegeEscalation"));
        loosenings.put("capabilities", c -> c.with("securityContext").remove("capabilities"));
        loosenings.put("seccomp", c -> c.with("securityContext").putObject("seccompProfile").put("type", "Unconfined"));
        loosenings.put("memory limit", c -> c.with("resources").with("limits").remove("memory"));
        loosenings.put("literal secret", c -> c.withArray("env").addObject().put("name", "DUCKLAKE_RDS_PASSWORD")
                .put("value", "hunter22"));
        for (JsonNode w : workloads()) {
            for (var loosening : loosenings.entrySet()) {
                JsonNode copy = w.deepCopy();
                loosening.getValue().accept((ObjectNode) podSpec(copy).path("containers").get(0));
                assertThat(lockDownViolations(copy)).as(name(w) + " with " + loosening.getKey()).isNotEmpty();
            }
            ObjectNode copy = w.deepCopy();
            ((ObjectNode) podSpec(copy)).remove("automountServiceAccountToken");
            assertThat(lockDownViolations(copy)).as(name(w) + " with a token mounted").isNotEmpty();
        }
    }
}
