package dev.millpond.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The Helm chart, through the real {@code helm} binary: {@code helm lint}, and {@code helm template} of several
 * pipelines checked against the same invariants as {@code kubernetes/} (inherited). The chart's defaults render
 * exactly the plain manifests, plus the image's JVM flags made explicit, so the measured budget is carried over.
 * helm must be on PATH ({@code .ci/run} installs it); without it these tests fail, they do not skip.
 */
@ServiceBacked
class HelmChartTest extends DeploymentInvariants {

    static final Path CHART = Path.of("charts", "millpond");
    static final Path MANY_PIPELINES = CHART.resolve("ci").resolve("three-pipelines-values.yaml");
    private static List<JsonNode> rendered;

    record Run(int exit, String stdout, String stderr) {
    }

    /** The helm on PATH, or a failure saying how to get one. */
    static Path helm() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "helm");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return fail("helm is not on PATH, and the chart tests need the real binary. Install it with "
                + "`go install helm.sh/helm/v3/cmd/helm@" + helmVersion() + "` and put $(go env GOPATH)/bin on PATH "
                + "(.ci/run does both)");
    }

    /** The version .ci/run pins, so the message and CI agree. */
    static String helmVersion() {
        try {
            Matcher m = Pattern.compile("HELM_VERSION=(v[0-9.]+)").matcher(Files.readString(Path.of(".ci", "run")));
            return m.find() ? m.group(1) : "<version>";
        } catch (IOException e) {
            return "<version>";
        }
    }

    static Run helm(String... args) {
        try {
            Path home = Files.createDirectories(Path.of("target", "helm-home"));
            Path out = Files.createTempFile(home, "out", ".txt");
            Path err = Files.createTempFile(home, "err", ".txt");
            List<String> command = new ArrayList<>();
            command.add(helm().toString());
            command.addAll(List.of(args));
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            // Its own config and cache, so a developer's repositories and plugins play no part.
            for (String dir : List.of("HELM_CONFIG_HOME", "HELM_CACHE_HOME", "HELM_DATA_HOME")) {
                pb.environment().put(dir, home.resolve(dir.toLowerCase()).toAbsolutePath().toString());
            }
            Process p = pb.start();
            if (!p.waitFor(2, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                fail("helm " + String.join(" ", args) + " did not finish within 2 minutes");
            }
            return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static List<JsonNode> template(String... extra) {
        List<String> args = new ArrayList<>(List.of("template", "lake", CHART.toString(), "--namespace", "millpond"));
        args.addAll(List.of(extra));
        Run run = helm(args.toArray(String[]::new));
        assertThat(run.exit()).as("helm %s\n%s", String.join(" ", args), run.stderr()).isZero();
        return parseYaml(run.stdout());
    }

    @Override
    synchronized List<JsonNode> manifests() {
        if (rendered == null) {
            rendered = template("-f", MANY_PIPELINES.toString());
        }
        return rendered;
    }

    @Test
    void helmLintPasses() {
        for (List<String> values : List.of(List.<String>of(), List.of("-f", MANY_PIPELINES.toString()))) {
            List<String> args = new ArrayList<>(List.of("lint", "--strict", CHART.toString()));
            args.addAll(values);
            Run run = helm(args.toArray(String[]::new));
            assertThat(run.exit()).as("helm %s\n%s%s", String.join(" ", args), run.stdout(), run.stderr()).isZero();
        }
    }

    /** One StatefulSet, Service, PodDisruptionBudget and ConfigMap per pipeline, each from that pipeline's values. */
    @Test
    void eachPipelineGetsItsOwnWriter() {
        JsonNode values = parseYaml(MANY_PIPELINES).get(0);
        Map<String, JsonNode> pipelines = new TreeMap<>();
        values.path("pipelines").fields().forEachRemaining(f -> pipelines.put(f.getKey(), f.getValue()));
        assertThat(pipelines).hasSize(3);
        JsonNode defaults = parseYaml(CHART.resolve("values.yaml")).get(0);
        for (String kind : List.of("StatefulSet", "Service", "PodDisruptionBudget", "ConfigMap")) {
            assertThat(kind(kind)).extracting(m -> m.at("/metadata/name").asText()).as(kind)
                    .containsExactlyInAnyOrderElementsOf(pipelines.keySet().stream().map(p -> "millpond-" + p).toList());
        }
        pipelines.forEach((name, p) -> {
            JsonNode sts = named("StatefulSet", "millpond-" + name);
            JsonNode c = container(sts);
            assertThat(sts.at("/spec/replicas").asInt()).as(name).isEqualTo(p.path("replicas").asInt());
            Map<String, String> env = envFrom(c);
            assertThat(env).as(name).containsEntry("KAFKA_TOPIC", p.path("topic").asText())
                    .containsEntry("DUCKLAKE_TABLE", p.path("table").asText())
                    .containsEntry("DUCKLAKE_DATA_PATH", p.path("dataPath").asText());
            // The pipeline's env over the shared one, key by key.
            defaults.path("env").fields().forEachRemaining(f -> assertThat(env).as(name)
                    .containsEntry(f.getKey(), p.at("/env/" + f.getKey()).asText(f.getValue().asText())));
            p.path("env").fields().forEachRemaining(f -> assertThat(env).containsEntry(f.getKey(), f.getValue().asText()));
            assertThat(c.path("envFrom").findValuesAsText("name")).as(name)
                    .containsExactly("millpond-" + name, p.path("secretName").asText("millpond-" + name + "-secrets"));
            JsonNode resources = p.has("resources") ? p.path("resources") : defaults.path("resources");
            assertThat(quantities(c.path("resources"))).as(name).isEqualTo(quantities(resources));
            List<String> cronJobs = kind("CronJob").stream()
                    .filter(j -> podLabels(j).path("app.kubernetes.io/instance").asText().equals(name))
                    .map(j -> j.at("/metadata/name").asText()).toList();
            boolean maintained = p.at("/maintenance/enabled").asBoolean(values.at("/maintenance/enabled").asBoolean());
            assertThat(cronJobs).as(name + " CronJobs").hasSize(maintained ? 6 : 0);
        });
    }

    /**
     * The defaults are {@code kubernetes/}: the same pod specs, resources, probes and schedules (so the memory limit
     * measured there is the chart's), with the image's JVM flags ({@code Dockerfile.jvm}) made explicit.
     */
    @Test
    void theDefaultsRenderThePlainManifestsAndTheImagesJvmFlags() throws IOException {
        List<JsonNode> chart = template("--set", "maintenance.enabled=true");
        KubernetesManifestsTest plain = new KubernetesManifestsTest();
        Matcher javaOpts = Pattern.compile("JAVA_OPTS=\"([^\"]*)\"")
                .matcher(Files.readString(Path.of("src", "main", "docker", "Dockerfile.jvm")));
        assertThat(javaOpts.find()).isTrue();
        for (String kind : List.of("StatefulSet", "Service", "PodDisruptionBudget", "ConfigMap", "CronJob")) {
            List<JsonNode> expected = plain.kind(kind);
            List<JsonNode> actual = chart.stream().filter(m -> m.path("kind").asText().equals(kind)).toList();
            assertThat(actual).extracting(m -> m.at("/metadata/name").asText()).as(kind)
                    .containsExactlyInAnyOrderElementsOf(expected.stream().map(m -> m.at("/metadata/name").asText())
                            .toList());
            for (JsonNode e : expected) {
                JsonNode a = actual.stream().filter(m -> m.at("/metadata/name").equals(e.at("/metadata/name")))
                        .findFirst().orElseThrow();
                if (kind.equals("StatefulSet")) {
                    assertThat(env(container(a))).containsEntry("JAVA_OPTS", javaOpts.group(1));
                }
                assertThat(comparable(a)).as(name(a)).isEqualTo(comparable(e));
            }
        }
    }

    /** Values that would deploy a broken or leaky pipeline fail the render, naming what is wrong. */
    @Test
    void aBadPipelineFailsTheRender() {
        Map<String, String> refused = Map.of(
                "--set=pipelines.events.replicas=13", "replicas (13) exceeds partitions (12)",
                "--set-string=pipelines.events.env.DUCKLAKE_RDS_PASSWORD=hunter22", "DUCKLAKE_RDS_PASSWORD is a secret",
                "--set-string=pipelines.events.env.KAFKA_CONSUMER_SASL_PASSWORD=hunter22", "is a secret",
                "--set-string=pipelines.events.env.REPLICA_COUNT=3", "rendered by the chart",
                "--set=maintenance.enabled=true,maintenance.jobs.compact.env.DUCKDB_S3_SECRET_ACCESS_KEY=k",
                "is a secret",
                "--set-string=pipelines.Events_1.topic=x", "Events_1");
        refused.forEach((set, message) -> {
            Run run = helm("template", "lake", CHART.toString(), set);
            assertThat(run.exit()).as(set).isNotZero();
            assertThat(run.stderr()).as(set).contains(message);
        });
        // The control: the chart's own values render.
        assertThat(helm("template", "lake", CHART.toString()).exit()).isZero();
    }

    /**
     * The chart keeps out of ConfigMaps exactly the variables the app treats as secrets (and so redacts): a name the
     * app calls a secret fails the render, any other renders.
     */
    @Test
    void theChartsSecretRuleIsTheApps() {
        List<String> names = List.of("DUCKLAKE_RDS_PASSWORD", "DUCKDB_S3_SECRET_ACCESS_KEY", "DUCKDB_S3_ACCESS_KEY_ID",
                "KAFKA_CONSUMER_SSL_KEY_PEM", "KAFKA_CONSUMER_SSL_KEY_PASSWORD", "KAFKA_CONSUMER_SASL_PASSWORD",
                "KAFKA_CONSUMER_SASL_USERNAME", "KAFKA_CONSUMER_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL",
                "KAFKA_CONSUMER_SSL_CA_LOCATION", "KAFKA_CONSUMER_SSL_KEYSTORE_LOCATION", "HOGLAKE_TOKEN",
                "HOGLAKE_URL", "PUSHGATEWAY_URL", "OTEL_EXPORTER_OTLP_ENDPOINT", "MILLPOND_API_KEY",
                "MILLPOND_AUTH_HEADER_VALUE", "DUCKLAKE_RDS_SSLROOTCERT", "x_private_key", "SOME_CREDENTIAL_FILE",
                "MILLPOND_INCLUDE_VALUES_URL", "DUCKLAKE_RDS_PASSWD");
        for (String name : names) {
            Run run = helm("template", "lake", CHART.toString(), "--set-string=pipelines.events.env." + name + "=v4lue");
            if (SecretVariables.isSecret(name)) {
                assertThat(run.exit()).as(name).isNotZero();
                assertThat(run.stderr()).as(name).contains(name + " is a secret");
            } else {
                assertThat(run.exit()).as(name + ": " + run.stderr()).isZero();
            }
        }
        assertThat(names).as("both kinds are tried").anyMatch(SecretVariables::isSecret)
                .anyMatch(n -> !SecretVariables.isSecret(n));
    }

    JsonNode named(String kind, String name) {
        return kind(kind).stream().filter(m -> m.at("/metadata/name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(kind + " " + name + " not rendered"));
    }

    /** Kubernetes quantities as text ("2" and 2 are the same request). */
    static Map<String, String> quantities(JsonNode resources) {
        Map<String, String> q = new TreeMap<>();
        resources.fields().forEachRemaining(group -> group.getValue().fields()
                .forEachRemaining(f -> q.put(group.getKey() + "." + f.getKey(), f.getValue().asText())));
        return q;
    }

    /**
     * A manifest's spec and data, without what differs by design: labels (Helm adds its own), the explicit
     * JAVA_OPTS, the order of env entries, and number-or-string spellings of the same quantity.
     */
    static JsonNode comparable(JsonNode manifest) {
        ObjectNode copy = manifest.deepCopy();
        copy.remove("metadata");
        if (POD_SPEC.containsKey(copy.path("kind").asText())) {
            String spec = POD_SPEC.get(copy.path("kind").asText());
            ((ObjectNode) copy.at(spec.substring(0, spec.length() - "/spec".length()))).remove("metadata");
            for (JsonNode c : containers(copy)) {
                ObjectNode container = (ObjectNode) c;
                List<JsonNode> env = new ArrayList<>();
                container.path("env").forEach(env::add);
                env.removeIf(e -> e.path("name").asText().equals("JAVA_OPTS"));
                env.sort(Comparator.comparing(e -> e.path("name").asText()));
                ArrayNode sorted = container.putArray("env");
                env.forEach(sorted::add);
                Map<String, String> quantities = quantities(c.path("resources"));
                ObjectNode resources = container.putObject("resources");
                quantities.forEach(resources::put);
            }
        }
        return copy;
    }
}
