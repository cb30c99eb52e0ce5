package dev.millpond.config;

import java.util.Map;
import java.util.OptionalInt;

/**
 * What {@code ducklake-maintenance compact} takes from the environment when its options leave it out.
 *
 * @param threads           COMPACTION_THREADS, default 2 ({@code --threads}): DuckDB threads during the merge
 * @param memoryLimit       COMPACTION_MEMORY_LIMIT, default {@code 4GB} ({@code --memory-limit}): DuckDB's
 *                          {@code memory_limit} during the merge
 * @param maxCompactedFiles COMPACTION_MAX_FILES, default 80 ({@code --max-compacted-files}): the run's budget
 * @param maxOutputsPerCall COMPACTION_MAX_OUTPUTS_PER_CALL, unset by default ({@code --max-outputs-per-call}): splits a
 *                          table's share into several smaller commits
 */
public record CompactionDefaults(int threads, String memoryLimit, int maxCompactedFiles,
                                 OptionalInt maxOutputsPerCall) {

    /**
     * Reads the four variables; unset or empty gives the default.
     *
     * @throws ConfigException naming the variable that is not an integer
     */
    public static CompactionDefaults fromEnvironment(Map<String, String> vars) {
        Env env = new Env(vars);
        String outputs = env.raw("COMPACTION_MAX_OUTPUTS_PER_CALL");
        return new CompactionDefaults(WriterProcessConfig.intOrDefault(env, "COMPACTION_THREADS", 2),
                env.orDefaultIfEmpty("COMPACTION_MEMORY_LIMIT", "4GB"),
                WriterProcessConfig.intOrDefault(env, "COMPACTION_MAX_FILES", 80),
                outputs == null || outputs.isBlank() ? OptionalInt.empty()
                        : OptionalInt.of(PythonInt.parseInt("COMPACTION_MAX_OUTPUTS_PER_CALL", outputs)));
    }
}
