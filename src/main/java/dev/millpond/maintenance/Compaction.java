package dev.millpond.maintenance;

import dev.millpond.ducklake.DuckLakeSql;
import org.jboss.logging.Logger;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Tiered compaction with DuckLake's {@code ducklake_merge_adjacent_files}, one call per table so one table that
 * cannot merge does not stop the others (its failure is counted, the run still succeeds). The run has a budget of
 * input files; tables with the biggest backlog go first, and with several tables none may take more than half the
 * budget, so one busy table cannot starve the rest. {@code target_file_size} is set to the tier's target for the
 * run and restored afterwards.
 */
public final class Compaction {

    private static final Logger LOG = Logger.getLogger(Compaction.class);
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9_]+");
    /** DuckLake's default when the catalog never set the option. */
    static final String DEFAULT_TARGET_FILE_SIZE = "512MiB";

    private final LakeSession session;

    Compaction(LakeSession session) {
        this.session = session;
    }

    /**
     * @param candidates   live files in the band before the run
     * @param tablesFailed tables whose merge failed (the run still exits 0; exported as a gauge)
     */
    public record Result(int tier, long candidates, int tables, int tablesFailed, long inputFiles, long outputFiles) {
    }

    record TableRef(String schema, String table) {
    }

    static void requireIdentifier(String name) {
        if (!IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("Illegal character in table name: '" + name + "'");
        }
    }

    Result run(CompactionOptions o) throws SQLException {
        CompactionTier tier = o.tier();
        o.table().ifPresent(Compaction::requireIdentifier);
        String band = "df.end_snapshot IS NULL AND df.file_size_bytes < " + tier.maxBytes()
                + (tier.minBytes().isPresent() ? " AND df.file_size_bytes >= " + tier.minBytes().getAsLong() : "");
        String tableFilter = o.table().map(t -> " AND df.table_id IN (SELECT table_id FROM ducklake_table WHERE "
                + "end_snapshot IS NULL AND table_name = " + DuckLakeSql.literal(t) + ")").orElse("");
        List<String> cand = LakeSession.queryRows(session.catalog(), "SELECT count(*), coalesce(sum(file_size_bytes), 0) "
                + "FROM ducklake_data_file df WHERE " + band + tableFilter).get(0);
        long candidates = Long.parseLong(cand.get(0));
        LOG.infof("compact tier-%d (%s): files in [%d, %d) bytes into ~%s targets, budget %d files%s: %d candidate(s), "
                        + "%s bytes (dry_run=%s)", tier.number(), o.table().map(t -> "table " + t).orElse("catalog-wide"),
                tier.minBytes().orElse(0), tier.maxBytes(), tier.target(), o.maxCompactedFiles(),
                o.maxOutputsPerCall().isPresent() ? ", " + o.maxOutputsPerCall().getAsInt() + " per call" : "",
                candidates, cand.get(1), o.dryRun());
        if (o.dryRun() || candidates == 0) {
            return new Result(tier.number(), candidates, 0, 0, 0, 0);
        }
        List<TableRef> tables = o.table().isPresent() ? List.of(tableOf(o.table().get())) : tablesWithBacklog(band);
        tune(o);
        String restore = currentTargetFileSize();
        LakeSession.execute(session.duck(), "CALL ducklake_set_option('lake', 'target_file_size', "
                + DuckLakeSql.literal(tier.target()) + ")");
        int failed = 0;
        long inputs = 0;
        long outputs = 0;
        try {
            long remaining = o.maxCompactedFiles();
            for (TableRef t : tables) {
                if (remaining <= 0) {
                    LOG.infof("compact tier-%d: file budget used up; the other tables wait for the next run",
                            tier.number());
                    break;
                }
                long grant = tables.size() == 1 ? remaining : Math.min(remaining, Math.max(1, o.maxCompactedFiles() / 2));
                try {
                    long[] merged = mergeTable(t, tier, grant, o);
                    inputs += merged[0];
                    outputs += merged[1];
                    remaining -= merged[0];
                    LOG.infof("compact tier-%d: %s.%s: %d file(s) -> %d", tier.number(), t.schema(), t.table(),
                            merged[0], merged[1]);
                } catch (SQLException e) {
                    if (o.table().isPresent()) {
                        throw e;
                    }
                    failed++;
                    LOG.errorf("compact tier-%d: %s.%s failed; continuing with the other tables: %s", tier.number(),
                            t.schema(), t.table(), e.getMessage());
                }
            }
        } finally {
            LakeSession.execute(session.duck(), "CALL ducklake_set_option('lake', 'target_file_size', "
                    + DuckLakeSql.literal(restore) + ")");
        }
        LOG.infof("compact tier-%d: %d table(s), %d failed, %d file(s) -> %d", tier.number(), tables.size(), failed,
                inputs, outputs);
        return new Result(tier.number(), candidates, tables.size(), failed, inputs, outputs);
    }

    /** {inputs, outputs} merged for one table, in one call or, with a per-call cap, in several. */
    private long[] mergeTable(TableRef t, CompactionTier tier, long grant, CompactionOptions o) throws SQLException {
        long inputs = 0;
        long outputs = 0;
        long left = grant;
        while (left > 0) {
            long cap = o.maxOutputsPerCall().isPresent() ? Math.min(o.maxOutputsPerCall().getAsInt(), left) : left;
            String call = "CALL ducklake_merge_adjacent_files('lake', " + DuckLakeSql.literal(t.table()) + ", schema => "
                    + DuckLakeSql.literal(t.schema()) + ", max_file_size => " + tier.maxBytes()
                    + (tier.minBytes().isPresent() ? ", min_file_size => " + tier.minBytes().getAsLong() : "")
                    + ", max_compacted_files => " + cap + ")";
            long snapshot = LakeSession.queryLong(session.catalog(), "SELECT max(snapshot_id) FROM ducklake_snapshot");
            java.util.Map<Long, Long> before = liveFiles(t);
            LakeSession.queryRows(session.duck(), call);
            java.util.Map<Long, Long> after = liveFiles(t);
            long callInputs = before.keySet().stream().filter(id -> !after.containsKey(id)).count();
            outputs += after.entrySet().stream()
                    .filter(e -> !before.containsKey(e.getKey()) && e.getValue() <= snapshot).count();
            inputs += callInputs;
            left -= callInputs;
            if (callInputs == 0 || o.maxOutputsPerCall().isEmpty()) {
                break;
            }
        }
        return new long[]{inputs, outputs};
    }

    /**
     * The table's live data files: id → begin snapshot. The merge function of DuckDB 1.4.4 returned no rows (1.5.5's
     * returns one per table: schema, table, files merged, files written), so the catalog is compared instead. It
     * removes the merged files' rows outright (queuing their objects for deletion) while the merged file inherits the
     * first input's begin snapshot; so inputs are the ids that stopped being live, and outputs the new live ids that
     * begin at or before the call's starting snapshot (a writer's concurrent flush begins after it).
     */
    private java.util.Map<Long, Long> liveFiles(TableRef t) throws SQLException {
        java.util.Map<Long, Long> files = new java.util.HashMap<>();
        for (List<String> row : LakeSession.queryRows(session.catalog(), "SELECT df.data_file_id, df.begin_snapshot "
                + "FROM ducklake_data_file df JOIN ducklake_table t ON t.table_id = df.table_id AND t.end_snapshot IS NULL "
                + "JOIN ducklake_schema s ON s.schema_id = t.schema_id AND s.end_snapshot IS NULL "
                + "WHERE df.end_snapshot IS NULL AND t.table_name = " + DuckLakeSql.literal(t.table())
                + " AND s.schema_name = " + DuckLakeSql.literal(t.schema()))) {
            files.put(Long.parseLong(row.get(0)), Long.parseLong(row.get(1)));
        }
        return files;
    }

    /**
     * Tables with at least two live files in the band that carry no live delete file (the merge skips those),
     * biggest backlog first.
     */
    private List<TableRef> tablesWithBacklog(String band) throws SQLException {
        List<TableRef> tables = new ArrayList<>();
        for (List<String> row : LakeSession.queryRows(session.catalog(), "SELECT s.schema_name, t.table_name "
                + "FROM ducklake_data_file df JOIN ducklake_table t ON t.table_id = df.table_id AND t.end_snapshot IS NULL "
                + "JOIN ducklake_schema s ON s.schema_id = t.schema_id AND s.end_snapshot IS NULL WHERE " + band
                + " AND NOT EXISTS (SELECT 1 FROM ducklake_delete_file d WHERE d.data_file_id = df.data_file_id "
                + "AND d.end_snapshot IS NULL) GROUP BY 1, 2 HAVING count(*) >= 2 ORDER BY count(*) DESC, 1, 2")) {
            if (!IDENTIFIER.matcher(row.get(0)).matches() || !IDENTIFIER.matcher(row.get(1)).matches()) {
                LOG.warnf("compact: skipping %s.%s: not a plain identifier", row.get(0), row.get(1));
                continue;
            }
            tables.add(new TableRef(row.get(0), row.get(1)));
        }
        return tables;
    }

    private TableRef tableOf(String table) throws SQLException {
        List<List<String>> rows = LakeSession.queryRows(session.catalog(), "SELECT s.schema_name FROM ducklake_table t "
                + "JOIN ducklake_schema s ON s.schema_id = t.schema_id AND s.end_snapshot IS NULL "
                + "WHERE t.end_snapshot IS NULL AND t.table_name = " + DuckLakeSql.literal(table));
        if (rows.size() != 1) {
            throw new SQLException("compact: table " + table + (rows.isEmpty() ? " does not exist"
                    : " exists in several schemas") + " in this catalog");
        }
        return new TableRef(rows.get(0).get(0), table);
    }

    private void tune(CompactionOptions o) throws SQLException {
        LakeSession.execute(session.duck(), "SET threads = " + o.threads());
        LakeSession.execute(session.duck(), "SET memory_limit = " + DuckLakeSql.literal(o.memoryLimit()));
        // Multi-megabyte GETs and PUTs: DuckDB's 30 s default is too tight for a slow S3 moment. The setting is in
        // seconds (600000 here once meant a week).
        LakeSession.execute(session.duck(), "SET http_timeout = 600");
    }

    /**
     * The catalog-wide target_file_size to restore, in the unit form ducklake_set_option accepts (the catalog stores
     * plain bytes). DuckLake's default when unset or not expressible in whole binary units.
     */
    private String currentTargetFileSize() throws SQLException {
        List<List<String>> rows = LakeSession.queryRows(session.duck(), "SELECT value FROM ducklake_options('lake') "
                + "WHERE option_name = 'target_file_size' AND scope = 'GLOBAL'");
        if (rows.isEmpty() || rows.get(0).get(0) == null || rows.get(0).get(0).isBlank()) {
            return DEFAULT_TARGET_FILE_SIZE;
        }
        return withUnit(rows.get(0).get(0)).orElseGet(() -> {
            LOG.warnf("target_file_size %s has no whole binary unit; restoring %s", rows.get(0).get(0),
                    DEFAULT_TARGET_FILE_SIZE);
            return DEFAULT_TARGET_FILE_SIZE;
        });
    }

    static java.util.Optional<String> withUnit(String bytes) {
        long n;
        try {
            n = Long.parseLong(bytes.strip());
        } catch (NumberFormatException e) {
            return java.util.Optional.empty();
        }
        String[] units = {"TiB", "GiB", "MiB", "KiB"};
        long[] scales = {1L << 40, 1L << 30, 1L << 20, 1L << 10};
        for (int i = 0; i < units.length; i++) {
            if (n >= scales[i] && n % scales[i] == 0) {
                return java.util.Optional.of(n / scales[i] + units[i]);
            }
        }
        return java.util.Optional.empty();
    }
}
