package dev.millpond.sinks.ducklake;

import java.sql.SQLException;

/**
 * The one failure of an INSERT with VARIANT companions that is answered by writing the flush again without them: DuckDB's
 * parquet writer failing to shred an integer above INT64_MAX ("… can't be cast because the value is out of range for
 * the destination type INT64"). The rewrite of window integers ({@link Uint64WindowRewrite}) keeps text sources from it,
 * so what is left is a source of another type holding such a value. Every other failure — DuckDB out of memory among
 * them — goes to the write ladder like any failed write: the shapes DuckDB cannot write are found before the INSERT
 * ({@link CompanionScan}), and a retry shreds in smaller slices ({@link ShredPlan}), so no failure of the companions
 * becomes a flush without them.
 */
final class CompanionFailure {

    private CompanionFailure() {
    }

    /** The failure the string-only retry answers: a VARIANT value out of range for the shredded column. */
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
