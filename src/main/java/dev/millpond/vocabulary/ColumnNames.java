package dev.millpond.vocabulary;

import java.util.Collection;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The one rule for when two column names are the same column, on both destinations: when they are equal ignoring
 * case. DuckDB's identifiers are case-insensitive, and the engines that read hoglake's Iceberg-shaped tables (Trino,
 * Spark) resolve columns case-insensitively too, so {@code a} and {@code A} can never be two columns of one table.
 *
 * <ul>
 *   <li>Within a flush, the first spelling in the batch's column order (the order keys first appeared in the
 *       flush's records) is the column; a later key differing only in case is dropped, per column, counted as
 *       {@code records_skipped_total{reason="duplicate_field_name"}} once per flush, and its values are not
 *       written; the rows are kept ({@link Spellings}).</li>
 *   <li>Against the live table, a batch column lands in the live column of the same name, or else in the one that
 *       equals it ignoring case, whatever spelling the table has ({@link #liveSpelling}).</li>
 * </ul>
 */
public final class ColumnNames {

    private ColumnNames() {
    }

    /** The form two names are compared in. */
    public static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /**
     * The live column {@code name} lands in: itself when the table has exactly that name, else the table's spelling
     * of it, else empty (a new column).
     */
    public static Optional<String> liveSpelling(String name, Collection<String> live) {
        if (live.contains(name)) {
            return Optional.of(name);
        }
        String folded = fold(name);
        return live.stream().filter(c -> fold(c).equals(folded)).findFirst();
    }

    /** The spellings one flush's columns have taken so far. Not thread-safe: one per flush. */
    public static final class Spellings {
        private final Set<String> taken = new HashSet<>();

        /**
         * True when {@code name} is the first spelling of its column in this flush (it becomes the column), false
         * when an earlier name equals it ignoring case (it is dropped as {@code duplicate_field_name}).
         */
        public boolean first(String name) {
            return taken.add(fold(name));
        }
    }
}
