package dev.millpond.config;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The manifests {@code kubectl apply -f kubernetes/} applies (that directory's own files, not its subdirectories),
 * parsed, against the invariants the app relies on.
 */
class KubernetesManifestsTest extends DeploymentInvariants {

    static final Path APPLIED = Path.of("kubernetes");
    private static final List<JsonNode> MANIFESTS = parseAppliedDirectory();

    private static List<JsonNode> parseAppliedDirectory() {
        List<JsonNode> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(APPLIED)) {
            files.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted()
                    .forEach(f -> all.addAll(parseYaml(f)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all;
    }

    @Override
    List<JsonNode> manifests() {
        return MANIFESTS;
    }

    @Test
    void theAppliedDirectoryHoldsTheWholePipeline() {
        assertThat(MANIFESTS).extracting(m -> m.path("kind").asText())
                .contains("StatefulSet", "ConfigMap", "Service", "PodDisruptionBudget", "CronJob")
                .doesNotContain("Secret");
    }

    /** The example keeps the real Secret's name and keys, out of the applied directory and out of any recursive apply. */
    @Test
    void theExampleSecretIsOutsideWhatIsApplied() throws IOException {
        List<JsonNode> example = parseYaml(EXAMPLE_SECRET);
        assertThat(example).extracting(m -> m.path("kind").asText()).containsExactly("Secret");
        assertThat(EXAMPLE_SECRET.getParent()).isNotEqualTo(APPLIED);
        for (JsonNode sts : kind("StatefulSet")) {
            assertThat(container(sts).path("envFrom").findValuesAsText("name"))
                    .contains(example.get(0).at("/metadata/name").asText());
        }
        for (Path doc : List.of(Path.of("README.md"), APPLIED.resolve("README.md"))) {
            assertThat(Files.readString(doc)).as(doc + " applies kubernetes/ recursively")
                    .doesNotContainPattern("kubectl[^\\n]*apply[^\\n]*(\\s-R\\b|--recursive)");
        }
    }
}
