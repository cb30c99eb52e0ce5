package dev.millpond.stages;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Logs a warning once per distinct key for the life of the process, so a misconfiguration that hits every batch
 * is visible without flooding the log. Keys are patterns (column, type, missing fields), never per-row values, so
 * the set stays small.
 */
final class OnceWarnings {
    private final System.Logger log;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    OnceWarnings(System.Logger log) {
        this.log = log;
    }

    /** Log {@code message} if {@code key} has not been warned about; true when it was logged. */
    boolean warn(String key, Supplier<String> message) {
        if (seen.add(key)) {
            log.log(System.Logger.Level.WARNING, message.get());
            return true;
        }
        return false;
    }
}
