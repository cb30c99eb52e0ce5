package dev.millpond.sinks.ducklake;

import java.sql.SQLException;

/**
 * Which failures of an INSERT that carries VARIANT companions are retried at once without them. The one failure the
 * original expects is DuckDB's parquet writer failing to shred an unsigned integer above INT64_MAX; DuckDB 1.5.5 has
 * more that depend only on the data (a repeated key, also in another case, or an empty key fails the parquet write;
 * mixed-type arrays fail the commit of an inlined flush), and each would fail every retry of the flush and so wedge
 * the partition. So every failure is absorbed except the two the write-retry path must see: contention with another
 * writer and an unreachable catalog or object store. Absorbing costs one more INSERT; if the failure was not the
 * companions', the string-only INSERT fails too, and that failure propagates as usual.
 */
final class CompanionFailure {

    private CompanionFailure() {
    }

    static boolean absorbable(Throwable failure) {
        return !CommitContention.isContention(failure) && !DuckLakeFailures.isUnavailable(failure);
    }

    /** The failure the original's backstop names: a VARIANT value out of range for the shredded column. */
    static boolean isOverflow(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m != null && m.contains("out of range for the destination type") && m.contains("can't be cast")) {
                return true;
            }
        }
        return false;
    }

    static String firstLine(SQLException e) {
        return String.valueOf(e.getMessage()).lines().findFirst().orElse("");
    }
}
