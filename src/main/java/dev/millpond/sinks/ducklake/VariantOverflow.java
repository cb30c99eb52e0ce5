package dev.millpond.sinks.ducklake;

import java.sql.SQLException;

/**
 * The one INSERT failure a VARIANT companion can cause on data: DuckDB's parquet writer failing to shred an unsigned
 * integer above INT64_MAX. Recognised by its text only, so that nothing else (commit contention, IO, the catalog) is
 * ever mistaken for it and absorbed by writing the flush without companions.
 */
final class VariantOverflow {

    private VariantOverflow() {
    }

    static boolean is(Throwable failure) {
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
