package dev.millpond.sinks.ducklake;

import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * DuckDB holds a whole parquet row group per writing thread in memory, so the row group size bounds the write's
 * memory (docs/memory.md). DuckLake reads it only from its catalog options — there is no session setting — so the
 * bound is set on the writer's own table ({@code parquet_row_group_size}, rows), never lake-wide, where every other
 * writer of the lake would inherit it.
 *
 * <p>The byte bound ({@code parquet_row_group_size_bytes}) is never set: at any scope it makes every INSERT of a
 * client that preserves insertion order (DuckDB's default) fail with "ROW_GROUP_SIZE_BYTES does not work while
 * preserving insertion order", so it would break the other writers of the table. The value is the same on every pod
 * (it does not follow the memory budget), set only when neither the table nor its schema has one and the lake-wide
 * value is larger: restarts do not write to the catalog and pods with different limits do not flip it. A failure
 * (another pod setting it at the same moment) costs only memory, so it is logged, not raised.
 */
final class TableRowGroupSize {

    private static final Logger LOG = Logger.getLogger(TableRowGroupSize.class);
    private static final String OPTION = "parquet_row_group_size";
    /** DuckLake's own default when no scope sets one. */
    static final long DUCKLAKE_DEFAULT_ROWS = 122_880;

    private final Connection connection;
    private final String schema;
    private final String table;
    private final long rows;
    private boolean checked;
    /** The row group the table's files get, once {@link #ensure} has looked; the budget's value until then. */
    private long effective;

    TableRowGroupSize(Connection connection, String schema, String table, long rows) {
        this.connection = connection;
        this.schema = schema;
        this.table = table;
        this.rows = rows;
        this.effective = rows;
    }

    /** The rows of the table's parquet row groups: what DuckDB analyses of a file to decide its VARIANT shredding. */
    long effectiveRows() {
        return effective;
    }

    /** Once per sink, after the table exists. */
    void ensure() {
        if (checked) {
            return;
        }
        checked = true;
        try {
            TableOptions.Scoped scoped = TableOptions.read(connection, OPTION, schema, table);
            if (scoped.own().isPresent()) {
                // An operator's (or an earlier start's) choice for this table or schema stands.
                effective = Long.parseLong(scoped.own().get());
                return;
            }
            long global = scoped.global().map(Long::parseLong).orElse(DUCKLAKE_DEFAULT_ROWS);
            effective = Math.min(global, rows);
            if (global > rows) {
                TableOptions.setOnTable(connection, OPTION, Long.toString(rows), schema, table);
                LOG.infof("DuckLake option %s set to %d for the table %s.%s (the lake-wide value %d is left alone)",
                        OPTION, rows, schema, table, global);
            }
        } catch (SQLException | NumberFormatException e) {
            LOG.warnf("Could not set the DuckLake option %s=%d on %s.%s: %s", OPTION, rows, schema, table,
                    String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }
}
