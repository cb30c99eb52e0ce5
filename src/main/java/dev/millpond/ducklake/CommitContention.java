package dev.millpond.ducklake;

import java.util.List;

/**
 * Recognises catalog commit contention between pods from the error text, as the original does, anywhere in the
 * cause chain: DuckLake's own conflict errors, its retry budget running out, and the Postgres catalog's unique-key and
 * serialization failures when two pods commit the same snapshot id.
 */
public final class CommitContention {

    static final List<String> MARKERS = List.of(
            "maximum retry count", "duplicate key value", "could not serialize access", "Transaction conflict");

    private CommitContention() {
    }

    public static boolean isContention(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            for (String marker : MARKERS) {
                if (message.contains(marker)) {
                    return true;
                }
            }
        }
        return false;
    }
}
