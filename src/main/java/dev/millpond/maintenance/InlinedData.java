package dev.millpond.maintenance;

import dev.millpond.ducklake.DuckLakeSql;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * DuckLake's data inlining as the catalog holds it, and its flush to parquet. DuckLake 1.0 (DuckDB 1.5) writes an
 * insert of up to {@code data_inlining_row_limit} rows (10 by default) into a Postgres table of the catalog instead of
 * a parquet file: one {@code ducklake_inlined_data_<table id>_<schema version>} per schema version of the table,
 * created with the version (an {@code ALTER} makes the next one even when nothing is inserted). A quiet pipeline's
 * flushes, and the {@code _millpond_offsets} rows of every flush, therefore pile up in Postgres until
 * {@code ducklake_flush_inlined_data} writes them out: one parquet file per inlined table that holds rows, the rows'
 * own snapshots kept, after which DuckLake drops every inlined table of the table but the current version's, left
 * empty. A table whose {@code data_inlining_row_limit} is 0 inlines nothing and its flush is a no-op. Measured on
 * DuckDB 1.5.5 with a Postgres catalog; a dropped table's inlined tables go with it.
 */
public final class InlinedData {

    private static final Logger LOG = Logger.getLogger(InlinedData.class);
    /** DuckLake's naming; checked before a name is spliced into a count. */
    private static final Pattern INLINED_TABLE = Pattern.compile("ducklake_inlined_data_[0-9]+_[0-9]+");

    private final LakeSession session;

    InlinedData(LakeSession session) {
        this.session = session;
    }

    /** One live table's inlined data: how many catalog tables hold it and how many rows they hold. */
    public record TableInlining(String schema, String table, int inlinedTables, long rows) {
        public String name() {
            return schema + "." + table;
        }

        /** Whether a flush would change anything: rows to write, or inlined tables of older versions to drop. */
        boolean flushable() {
            return rows > 0 || inlinedTables > 1;
        }

        @Override
        public String toString() {
            return name() + ": " + rows + " inlined row(s) in " + inlinedTables + " catalog table(s)";
        }
    }

    /**
     * @param before      every live table with inlined tables, before the run
     * @param rowsFlushed rows DuckLake wrote to parquet
     * @param failed      tables whose flush failed (their rows stay in the catalog)
     * @param after       the same inventory after the run (equal to {@code before} on a dry run)
     */
    public record Result(List<TableInlining> before, long rowsFlushed, List<String> failed, List<TableInlining> after) {
    }

    /** Live tables (of {@code table}'s name only, when given) with inlined tables, by schema and name. */
    public static List<TableInlining> inventory(Connection catalog, Optional<String> table) throws SQLException {
        Map<String, List<String>> inlinedOf = new LinkedHashMap<>();
        Map<String, String[]> names = new LinkedHashMap<>();
        try (PreparedStatement ps = catalog.prepareStatement("SELECT s.schema_name, t.table_name, i.table_name "
                + "FROM ducklake_inlined_data_tables i "
                + "JOIN ducklake_table t ON t.table_id = i.table_id AND t.end_snapshot IS NULL "
                + "JOIN ducklake_schema s ON s.schema_id = t.schema_id AND s.end_snapshot IS NULL "
                + "WHERE (CAST(? AS text) IS NULL OR t.table_name = ?) ORDER BY 1, 2, i.schema_version")) {
            ps.setString(1, table.orElse(null));
            ps.setString(2, table.orElse(null));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String key = rs.getString(1) + "." + rs.getString(2);
                    names.putIfAbsent(key, new String[]{rs.getString(1), rs.getString(2)});
                    inlinedOf.computeIfAbsent(key, k -> new ArrayList<>()).add(rs.getString(3));
                }
            }
        }
        List<TableInlining> out = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : inlinedOf.entrySet()) {
            long rows = 0;
            for (String inlined : e.getValue()) {
                rows += rowsIn(catalog, inlined);
            }
            String[] n = names.get(e.getKey());
            out.add(new TableInlining(n[0], n[1], e.getValue().size(), rows));
        }
        return out;
    }

    private static long rowsIn(Connection catalog, String inlinedTable) throws SQLException {
        if (!INLINED_TABLE.matcher(inlinedTable).matches()) {
            throw new SQLException("unexpected inlined data table name in the catalog: '" + inlinedTable + "'");
        }
        try {
            return LakeSession.queryLong(catalog, "SELECT count(*) FROM " + inlinedTable);
        } catch (SQLException e) {
            if ("42P01".equals(e.getSQLState())) {
                return 0; // dropped by a concurrent flush between the listing and the count
            }
            throw e;
        }
    }

    /**
     * Flushes the inlined rows of every live table that has any (or only {@code table}), one table per call so a
     * table that cannot be flushed leaves the others to go on; its rows stay where they are. A dry run only counts.
     */
    Result run(Optional<String> table, boolean dryRun) throws SQLException {
        table.ifPresent(Compaction::requireIdentifier);
        List<TableInlining> before = inventory(session.catalog(), table);
        long rows = before.stream().mapToLong(TableInlining::rows).sum();
        List<TableInlining> flushable = before.stream().filter(TableInlining::flushable).toList();
        LOG.infof("flush-inlined (%s): %d inlined row(s) in %d table(s), %d to flush (dry_run=%s)",
                table.map(t -> "table " + t).orElse("catalog-wide"), rows, before.size(), flushable.size(), dryRun);
        flushable.forEach(t -> LOG.infof("flush-inlined: %s", t));
        if (dryRun || flushable.isEmpty()) {
            return new Result(before, 0, List.of(), before);
        }
        long flushed = 0;
        List<String> failed = new ArrayList<>();
        for (TableInlining t : flushable) {
            try {
                long n = 0;
                String call = "CALL ducklake_flush_inlined_data('lake', schema_name => "
                        + DuckLakeSql.literal(t.schema()) + ", table_name => " + DuckLakeSql.literal(t.table()) + ")";
                for (List<String> row : LakeSession.queryRows(session.duck(), call)) {
                    n += Long.parseLong(row.get(2));
                }
                flushed += n;
                LOG.infof("flush-inlined: %s: %d row(s) written to parquet", t.name(), n);
            } catch (SQLException e) {
                failed.add(t.name());
                LOG.errorf("flush-inlined: %s failed; its inlined rows stay in the catalog: %s", t.name(),
                        String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            }
        }
        List<TableInlining> after = inventory(session.catalog(), table);
        LOG.infof("flush-inlined: %d row(s) flushed in %d table(s), %d failed; %d inlined row(s) left", flushed,
                flushable.size() - failed.size(), failed.size(), after.stream().mapToLong(TableInlining::rows).sum());
        return new Result(before, flushed, List.copyOf(failed), after);
    }
}
