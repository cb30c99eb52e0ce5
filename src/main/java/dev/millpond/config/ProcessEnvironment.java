package dev.millpond.config;

import java.util.Map;

/**
 * The process's environment as millpond reads it: {@code System.getenv()} with every secret given as a file read in
 * ({@link SecretFiles}), once, the first time anything asks. Every reader of the process's configuration — the writer's
 * loader, its log redaction and log export, its scheduled maintenance, both CLI tools — goes through here, so a file
 * is read once and all of them see the same value.
 */
public final class ProcessEnvironment {

    private ProcessEnvironment() {
    }

    /** Initialised on first use: the JVM guarantees one resolution, whichever thread asks first. */
    private static final class Once {
        static final SecretFiles.Resolved RESOLVED = SecretFiles.resolve(System.getenv());
    }

    /**
     * The variables, secret files read.
     *
     * @throws ConfigException when a secret is set both ways or its file cannot be read
     */
    public static Map<String, String> variables() {
        return Once.RESOLVED.variablesOrThrow();
    }

    /**
     * The variables with every secret file that could be read, never failing: for what runs before the configuration
     * is validated and must not fail itself (the log redaction, which must know every secret, and the log export).
     */
    public static Map<String, String> bestEffort() {
        return Once.RESOLVED.variables();
    }
}
