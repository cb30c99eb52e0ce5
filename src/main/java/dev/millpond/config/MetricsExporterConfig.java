package dev.millpond.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What {@code ducklake-metrics} takes from the environment when its options leave it out (besides the lake's
 * variables, {@link LakeAccessConfig}). Unset or empty gives the default.
 *
 * @param tenant          DUCKLAKE_TENANT ({@code --tenant}): the {@code tenant} label on every series; required
 *                        by the exporter, which says so
 * @param port            DUCKLAKE_METRICS_PORT, default 9100: the daemon's HTTP port
 * @param livenessTimeout DUCKLAKE_METRICS_LIVENESS_TIMEOUT, default 300 s ({@code --liveness-timeout-seconds})
 * @param pushUrl         DUCKLAKE_METRICS_PUSH_URL ({@code --push-url}): where {@code --once} POSTs the exposition
 * @param queriesFile     DUCKLAKE_METRICS_CONFIG ({@code --config}): a YAML file of extra queries
 * @param disabled        DUCKLAKE_METRICS_DISABLE ({@code --disable}): query names not to run, comma-separated
 * @param memoryLimit     DUCKLAKE_METRICS_MEMORY_LIMIT ({@code --duckdb-memory-limit}): DuckDB's {@code memory_limit}
 */
public record MetricsExporterConfig(Optional<String> tenant, int port, Duration livenessTimeout,
                                    Optional<String> pushUrl, Optional<Path> queriesFile, Set<String> disabled,
                                    Optional<String> memoryLimit) {

    public MetricsExporterConfig {
        disabled = Set.copyOf(disabled);
    }

    /**
     * Reads the exporter's variables.
     *
     * @throws ConfigException naming the variable that is not an integer
     */
    public static MetricsExporterConfig fromEnvironment(Map<String, String> vars) {
        Env env = new Env(vars);
        String liveness = env.raw("DUCKLAKE_METRICS_LIVENESS_TIMEOUT");
        return new MetricsExporterConfig(nonBlank(env, "DUCKLAKE_TENANT"),
                WriterProcessConfig.intOrDefault(env, "DUCKLAKE_METRICS_PORT", 9100),
                Duration.ofSeconds(liveness == null || liveness.isBlank() ? 300
                        : PythonInt.parseLong("DUCKLAKE_METRICS_LIVENESS_TIMEOUT", liveness)),
                nonBlank(env, "DUCKLAKE_METRICS_PUSH_URL"),
                nonBlank(env, "DUCKLAKE_METRICS_CONFIG").map(Path::of),
                Arrays.stream(env.orDefault("DUCKLAKE_METRICS_DISABLE", "").split(",")).map(String::strip)
                        .filter(s -> !s.isEmpty()).collect(Collectors.toSet()),
                nonBlank(env, "DUCKLAKE_METRICS_MEMORY_LIMIT"));
    }

    private static Optional<String> nonBlank(Env env, String name) {
        return Optional.ofNullable(env.raw(name)).filter(s -> !s.isBlank());
    }
}
