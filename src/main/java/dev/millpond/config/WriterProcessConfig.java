package dev.millpond.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;

/**
 * The writer process's own settings, beside the pipeline's ({@link MillpondConfig}): read first at startup, whether or
 * not the pump starts, by the same rules as every other variable (unset or empty gives the default; a bad value fails
 * startup with one line naming it).
 *
 * @param stopDeadline             MILLPOND_STOP_DEADLINE_S, default 90 s: how long a stop waits for the pump to flush
 *                                 and commit, inside the StatefulSet's 180 s grace period with room for the rest of
 *                                 the shutdown
 * @param pumpAutostart            MILLPOND_PUMP_AUTOSTART, default true; false (a test hook) serves the HTTP surface
 *                                 without the pump
 * @param duckDbExtensionDirectory MILLPOND_DUCKDB_EXTENSION_DIR, where the image bakes the DuckDB extensions
 * @param memoryLimit              MILLPOND_MEMORY_LIMIT in bytes, when the operator states it
 * @param maintenance              the scheduled maintenance jobs' limits
 * @param testHooks                the system-property test hooks
 */
public record WriterProcessConfig(Duration stopDeadline, boolean pumpAutostart, Path duckDbExtensionDirectory,
                                  OptionalLong memoryLimit, ScheduledMaintenanceConfig maintenance,
                                  TestHooks testHooks) {

    static final long DEFAULT_STOP_DEADLINE_S = 90;

    private static volatile WriterProcessConfig process;

    /**
     * This process's settings, from its environment (secret files read) and system properties, parsed on the first
     * call that succeeds and kept.
     *
     * @throws ConfigException naming the variable at fault
     */
    public static WriterProcessConfig fromProcess() {
        WriterProcessConfig c = process;
        if (c == null) {
            c = load(ProcessEnvironment.variables(), System.getProperties());
            process = c;
        }
        return c;
    }

    /**
     * Validate {@code vars} and {@code system} into the process's settings.
     *
     * @throws ConfigException naming the variable at fault
     */
    public static WriterProcessConfig load(Map<String, String> vars, Properties system) {
        Env env = new Env(vars);
        long stopDeadline = intOrDefault(env, "MILLPOND_STOP_DEADLINE_S", (int) DEFAULT_STOP_DEADLINE_S);
        return new WriterProcessConfig(Duration.ofSeconds(Math.max(1, stopDeadline)),
                env.booleanFlag("MILLPOND_PUMP_AUTOSTART", true), DuckDbExtensionDirectory.parse(env),
                MemoryLimit.parse(env), ScheduledMaintenanceConfig.parse(env), TestHooks.parse(system));
    }

    /** An integer whose unset or empty value means the default, as MicroProfile Config read these before. */
    static int intOrDefault(Env env, String name, int fallback) {
        String v = env.raw(name);
        return v == null || v.isBlank() ? fallback : PythonInt.parseInt(name, v);
    }
}
