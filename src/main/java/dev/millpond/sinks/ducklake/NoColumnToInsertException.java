package dev.millpond.sinks.ducklake;

import java.sql.SQLException;

/**
 * A flush has rows, but none of its columns exists in the live table and none could be added: the table reached its
 * width bound under another writer, or the catalog refused the ADD COLUMN. The sink cannot keep the rows as rejects
 * (it has only their Arrow values, sorted, not the Kafka records), so the attempt fails and nothing is committed; the
 * retry re-reads the table, and a restart starts the pump's width bound from the full table, which then sets such
 * records aside as rejects before they reach a flush (docs/decisions.md, "A flush that cannot land fails").
 */
final class NoColumnToInsertException extends SQLException {

    NoColumnToInsertException(long rows, int columns, String table) {
        super("None of the " + columns + " column(s) of this " + rows + "-row flush exists in " + table + " and none"
                + " could be added (the table is at its width bound, or the catalog refused the ADD COLUMN; see the"
                + " warnings above): the flush is not written and its offsets are not committed");
    }
}
