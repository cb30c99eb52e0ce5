package dev.millpond.maintenance;

import dev.millpond.config.ConfigException;
import dev.millpond.config.ProcessEnvironment;
import dev.millpond.observability.ToolLogging;

import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * How the image's tools ({@code ducklake-maintenance}, {@code ducklake-metrics}) start as processes: redacted logging
 * first, then the environment with secrets given as {@code <NAME>_FILE} read once; a secret that cannot be read ends
 * the process with one line naming the tool, before any command runs.
 */
public final class ToolProcess {

    private ToolProcess() {
    }

    /** Runs {@code tool} on the process's environment and exits with what it returns. */
    public static void run(String tool, ToIntFunction<Map<String, String>> command) {
        ToolLogging.install(ProcessEnvironment.bestEffort());
        Map<String, String> env;
        try {
            env = ProcessEnvironment.variables();
        } catch (ConfigException e) {
            System.err.println(tool + " failed: " + e.getMessage());
            System.exit(1);
            return;
        }
        System.exit(command.applyAsInt(env));
    }
}
