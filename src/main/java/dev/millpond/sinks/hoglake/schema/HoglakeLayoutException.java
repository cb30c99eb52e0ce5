package dev.millpond.sinks.hoglake.schema;

/**
 * The live table's partition spec or sort order diverges from configuration, or configuration names a partition
 * column the table cannot have: permanent, because a configuration typo must never leave a table laid out wrongly
 * for good and waiting cannot change either side.
 */
public final class HoglakeLayoutException extends RuntimeException {
    public HoglakeLayoutException(String message) {
        super(message, null, false, false);
    }
}
