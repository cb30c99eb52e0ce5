package dev.millpond.maintenance;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The knobs of one compaction run.
 *
 * @param table             one table, or every table with candidates in the band
 * @param threads           DuckDB threads during the merge (COMPACTION_THREADS, default 2)
 * @param memoryLimit       DuckDB memory_limit during the merge (COMPACTION_MEMORY_LIMIT, default 4GB)
 * @param maxCompactedFiles the run's budget of input files (COMPACTION_MAX_FILES, default 80)
 * @param maxOutputsPerCall when set, each merge call is capped at this many files and a table is called again until
 *                          its grant is used or a call merges nothing: many small commits instead of one large one
 *                          (COMPACTION_MAX_OUTPUTS_PER_CALL)
 */
public record CompactionOptions(
        CompactionTier tier,
        Optional<String> table,
        boolean dryRun,
        int threads,
        String memoryLimit,
        int maxCompactedFiles,
        OptionalInt maxOutputsPerCall) {

    public CompactionOptions {
        if (threads < 1 || maxCompactedFiles < 1 || maxOutputsPerCall.isPresent() && maxOutputsPerCall.getAsInt() < 1) {
            throw new IllegalArgumentException("threads, max compacted files and max outputs per call must be >= 1");
        }
        if (!memoryLimit.matches("[a-zA-Z0-9_.]+")) {
            throw new IllegalArgumentException("memory limit contains unsafe characters: " + memoryLimit);
        }
    }
}
