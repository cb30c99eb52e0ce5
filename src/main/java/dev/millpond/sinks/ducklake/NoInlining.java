package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.ducklake.Jdbc;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Sets a table's DuckLake {@code data_inlining_row_limit} to 0, so its inserts go to parquet files instead of catalog
 * rows: once, only when no table-level value exists yet (restarts do not write to the catalog, an operator's own value
 * stands). A failure (another pod setting it at the same moment) is logged, not raised: the table still works.
 */
final class NoInlining {

    private static final Logger LOG = Logger.getLogger(NoInlining.class);
    static final String OPTION = "data_inlining_row_limit";

    private NoInlining() {
    }

    /** @param why the end of the log line: what inlining would cost this table */
    static void ensure(Connection connection, String schema, String table, String why) {
        try {
            try (PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM lake.options() WHERE option_name = ?"
                    + " AND scope = 'TABLE' AND scope_entry = ?")) {
                ps.setString(1, OPTION);
                ps.setString(2, schema + "." + table);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return;
                    }
                }
            }
            Jdbc.execute(connection, "CALL lake.set_option(" + DuckLakeSql.literal(OPTION) + ", 0, schema => "
                    + DuckLakeSql.literal(schema) + ", table_name => " + DuckLakeSql.literal(table) + ")");
            LOG.infof("DuckLake option %s set to 0 for the table %s.%s: %s", OPTION, schema, table, why);
        } catch (SQLException e) {
            LOG.warnf("Could not set the DuckLake option %s=0 on %s.%s: %s", OPTION, schema, table,
                    String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }
}
