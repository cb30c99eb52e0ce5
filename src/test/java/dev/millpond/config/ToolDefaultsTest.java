package dev.millpond.config;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The tools' own variables, read in config like the writer's: defaults, types, and one line for a bad value. */
class ToolDefaultsTest {

    @Test
    void compactionDefaults() {
        assertThat(CompactionDefaults.fromEnvironment(Map.of())).isEqualTo(
                new CompactionDefaults(2, "4GB", 80, OptionalInt.empty()));
        assertThat(CompactionDefaults.fromEnvironment(Map.of("COMPACTION_THREADS", "", "COMPACTION_MEMORY_LIMIT", "",
                "COMPACTION_MAX_FILES", " ", "COMPACTION_MAX_OUTPUTS_PER_CALL", ""))).isEqualTo(
                new CompactionDefaults(2, "4GB", 80, OptionalInt.empty()));
        assertThat(CompactionDefaults.fromEnvironment(Map.of("COMPACTION_THREADS", " 4 ", "COMPACTION_MEMORY_LIMIT",
                "2GB", "COMPACTION_MAX_FILES", "40", "COMPACTION_MAX_OUTPUTS_PER_CALL", "3"))).isEqualTo(
                new CompactionDefaults(4, "2GB", 40, OptionalInt.of(3)));
        assertThatThrownBy(() -> CompactionDefaults.fromEnvironment(Map.of("COMPACTION_MAX_FILES", "lots")))
                .isInstanceOf(ConfigException.class).hasMessage("COMPACTION_MAX_FILES must be an integer, got 'lots'");
    }

    @Test
    void exporterDefaults() {
        assertThat(MetricsExporterConfig.fromEnvironment(Map.of())).isEqualTo(new MetricsExporterConfig(
                Optional.empty(), 9100, Duration.ofSeconds(300), Optional.empty(), Optional.empty(), Set.of(),
                Optional.empty()));
        assertThat(MetricsExporterConfig.fromEnvironment(Map.of("DUCKLAKE_TENANT", "t1", "DUCKLAKE_METRICS_PORT", "0",
                "DUCKLAKE_METRICS_LIVENESS_TIMEOUT", "60", "DUCKLAKE_METRICS_PUSH_URL", "http://gw:9091/x",
                "DUCKLAKE_METRICS_CONFIG", "/q.yaml", "DUCKLAKE_METRICS_DISABLE", " a, b,,",
                "DUCKLAKE_METRICS_MEMORY_LIMIT", "256MB"))).isEqualTo(new MetricsExporterConfig(Optional.of("t1"), 0,
                Duration.ofSeconds(60), Optional.of("http://gw:9091/x"), Optional.of(Path.of("/q.yaml")),
                Set.of("a", "b"), Optional.of("256MB")));
        assertThatThrownBy(() -> MetricsExporterConfig.fromEnvironment(Map.of("DUCKLAKE_METRICS_PORT", "http")))
                .isInstanceOf(ConfigException.class).hasMessage("DUCKLAKE_METRICS_PORT must be an integer, got 'http'");
        assertThatThrownBy(() -> MetricsExporterConfig.fromEnvironment(
                Map.of("DUCKLAKE_METRICS_LIVENESS_TIMEOUT", "5m"))).isInstanceOf(ConfigException.class)
                .hasMessage("DUCKLAKE_METRICS_LIVENESS_TIMEOUT must be an integer, got '5m'");
    }

    @Test
    void pushgatewayUrl() {
        assertThat(PushgatewayUrl.fromEnvironment(Map.of())).isEmpty();
        assertThat(PushgatewayUrl.fromEnvironment(Map.of("PUSHGATEWAY_URL", " "))).isEmpty();
        assertThat(PushgatewayUrl.fromEnvironment(Map.of("PUSHGATEWAY_URL", "gw.monitoring:9091/")))
                .contains(URI.create("http://gw.monitoring:9091"));
        assertThat(PushgatewayUrl.fromEnvironment(Map.of("PUSHGATEWAY_URL", "https://gw:9091")))
                .contains(URI.create("https://gw:9091"));
        assertThatThrownBy(() -> PushgatewayUrl.fromEnvironment(Map.of("PUSHGATEWAY_URL", "http://gw:9091/a b")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("PUSHGATEWAY_URL is not a valid URL");
    }
}
