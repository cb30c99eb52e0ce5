package dev.millpond.config;

/**
 * The variable group of the selected destination. Only the selected destination's group is read; the
 * other group's variables are ignored: {@link DuckLakeConfig} or {@link HoglakeConfig}.
 */
public interface DestinationConfig {
    /** Which destination this group configures. */
    Destination destination();

    /** The target table name; part of the pipeline label, the default group id and the client id. */
    String table();
}
