package dev.millpond.maintenance;

import dev.millpond.config.MillpondConfig;
import dev.millpond.ducklake.DuckLakeSql;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The lake upkeep operations, one implementation for the CLI and the scheduled jobs. Every operation that changes
 * the catalog or deletes objects takes the maintenance advisory lock first; a dry run changes nothing and takes no
 * lock. Operations log what they do and return what they found, so callers and tests can check it.
 */
public final class LakeMaintenance {

    private static final Logger LOG = Logger.getLogger(LakeMaintenance.class);
    private static final String LAKE = "'lake'";
    /** The snapshot id list is inlined into every statement of a batch; bigger lists make multi-megabyte SQL. */
    public static final int MAX_EXPIRE_BATCH_SIZE = 10_000;

    private final LakeSession session;

    public LakeMaintenance(LakeSession session) {
        this.session = session;
    }

    private Connection duck() {
        return session.duck();
    }

    private Connection catalog() {
        return session.catalog();
    }

    static void requireDays(int days) {
        if (days < 1) {
            throw new IllegalArgumentException("--days must be >= 1");
        }
    }

    // ---------------------------------------------------------------- snapshot and file lifecycle

    /** DuckLake's snapshot expiry. Returns the number of snapshots expired (or that would be). */
    public int expire(int days, boolean dryRun) throws SQLException {
        requireDays(days);
        if (!dryRun) {
            session.lock();
        }
        LOG.infof("Expiring snapshots older than %d days (dry_run=%s)", days, dryRun);
        List<List<String>> rows = LakeSession.queryRows(duck(), "CALL ducklake_expire_snapshots(" + LAKE
                + ", older_than => now() - INTERVAL '" + days + " days', dry_run => " + dryRun + ")");
        LOG.infof("expire: %d snapshot(s)%s", rows.size(), dryRun ? " would be expired" : " expired");
        return rows.size();
    }

    /** Deletes the files scheduled for deletion more than {@code days} ago. Returns the files deleted. */
    public List<String> cleanup(int days, boolean dryRun) throws SQLException {
        requireDays(days);
        if (!dryRun) {
            session.lock();
        }
        LOG.infof("Cleaning up files scheduled for deletion more than %d days ago (dry_run=%s)", days, dryRun);
        List<String> files = firstColumn(LakeSession.queryRows(duck(), "CALL ducklake_cleanup_old_files(" + LAKE
                + ", older_than => now() - INTERVAL '" + days + " days', dry_run => " + dryRun + ")"));
        logCleanup("cleanup", files, dryRun);
        return files;
    }

    /** Deletes every file scheduled for deletion, whatever its age. It has no preview form, so no dry run. */
    public List<String> cleanupAll() throws SQLException {
        session.lock();
        LOG.info("Cleaning up all files scheduled for deletion");
        List<String> files = firstColumn(LakeSession.queryRows(duck(),
                "CALL ducklake_cleanup_old_files(" + LAKE + ", cleanup_all => true)"));
        logCleanup("cleanup-all", files, false);
        return files;
    }

    private void logCleanup(String operation, List<String> files, boolean dryRun) throws SQLException {
        LOG.infof("%s: %d file(s)%s; %d still queued", operation, files.size(), dryRun ? " would be deleted" : " deleted",
                LakeSession.queryLong(catalog(), "SELECT count(*) FROM ducklake_files_scheduled_for_deletion"));
    }

    /** Expire, then clean up with the same age. */
    public void maintain(int days, boolean dryRun) throws SQLException {
        expire(days, dryRun);
        cleanup(days, dryRun);
    }

    /** DuckLake's CHECKPOINT: its own merge, expiry and cleanup in one statement. */
    public void checkpoint() throws SQLException {
        session.lock();
        LOG.info("Running CHECKPOINT");
        LakeSession.execute(duck(), "CHECKPOINT lake");
        LOG.info("CHECKPOINT complete");
    }

    /**
     * Snapshot expiry done in Postgres, in bounded batches of snapshot ids, because DuckLake's own expiry loads every
     * expired snapshot into memory before it deletes anything. Per batch, in one Postgres transaction: the files that
     * only expired snapshots could see are queued for deletion and their rows removed, then the snapshots. The newest
     * snapshot is never expired (DuckLake resolves all state from it). Returns the snapshots expired (or expirable).
     */
    public long expireSnapshots(int days, int batchSize, Integer numBatches, boolean dryRun) throws SQLException {
        requireDays(days);
        if (batchSize < 1 || batchSize > MAX_EXPIRE_BATCH_SIZE) {
            throw new IllegalArgumentException("--batch-size must be between 1 and " + MAX_EXPIRE_BATCH_SIZE);
        }
        if (!dryRun) {
            session.lock();
        }
        // One cutoff for the whole run, so a snapshot at the boundary is classified the same by every statement.
        String cutoff = LakeSession.queryRows(catalog(), "SELECT (now() - INTERVAL '" + days + " days')::text")
                .get(0).get(0);
        String expired = "snapshot_time < TIMESTAMPTZ " + DuckLakeSql.literal(cutoff)
                + " AND snapshot_id <> (SELECT max(snapshot_id) FROM ducklake_snapshot)";
        if (dryRun) {
            long n = LakeSession.queryLong(catalog(), "SELECT count(*) FROM ducklake_snapshot WHERE " + expired);
            LOG.infof("expire-snapshots dry-run: %d snapshot(s) older than %d days", n, days);
            return n;
        }
        boolean variantStats = tableExists("ducklake_file_variant_stats");
        long total = 0;
        int batches = 0;
        while (numBatches == null || batches < numBatches) {
            List<String> ids = firstColumn(LakeSession.queryRows(catalog(), "SELECT snapshot_id FROM "
                    + "ducklake_snapshot WHERE " + expired + " ORDER BY snapshot_id LIMIT " + batchSize));
            if (ids.isEmpty()) {
                break;
            }
            batches++;
            String idList = String.join(", ", ids);
            long[] dead = expireBatch(idList, variantStats);
            total += ids.size();
            LOG.infof("expire-snapshots: batch %d: snapshots %s..%s (%d), %d dead data file(s), %d dead delete "
                    + "file(s) queued for deletion", batches, ids.get(0), ids.get(ids.size() - 1), ids.size(), dead[0],
                    dead[1]);
        }
        LOG.infof("expire-snapshots: %d snapshot(s) expired in %d batch(es); run cleanup to delete the files", total,
                batches);
        return total;
    }

    /**
     * A file is dead when its end snapshot is in the batch and no snapshot outside the batch lies in
     * [begin_snapshot, end_snapshot): ids are expired in ascending order, so everything below the batch is gone.
     */
    private long[] expireBatch(String idList, boolean variantStats) throws SQLException {
        String deadWhere = "%1$s.end_snapshot IN (" + idList + ") AND NOT EXISTS (SELECT 1 FROM ducklake_snapshot live "
                + "WHERE live.snapshot_id >= %1$s.begin_snapshot AND live.snapshot_id < %1$s.end_snapshot "
                + "AND live.snapshot_id NOT IN (" + idList + "))";
        Connection c = catalog();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL statement_timeout = '600s'");
            s.execute("SET LOCAL lock_timeout = '30s'");
            s.execute("CREATE TEMP TABLE _expire_dead_data ON COMMIT DROP AS SELECT df.data_file_id, df.table_id, "
                    + "df.path, df.path_is_relative FROM ducklake_data_file df WHERE " + deadWhere.formatted("df"));
            s.execute("CREATE TEMP TABLE _expire_dead_delete ON COMMIT DROP AS SELECT d.delete_file_id, d.table_id, "
                    + "d.path, d.path_is_relative FROM ducklake_delete_file d WHERE " + deadWhere.formatted("d"));
            long deadData = count(s, "_expire_dead_data");
            long deadDelete = count(s, "_expire_dead_delete");
            // The queue stores paths relative to the data path; file rows store them relative to their table.
            String queue = "INSERT INTO ducklake_files_scheduled_for_deletion (data_file_id, path, path_is_relative, "
                    + "schedule_start) SELECT d.%2$s, CASE WHEN d.path_is_relative THEN substr(tbl.base, "
                    + "length(dp.data_path) + 1) || d.path ELSE d.path END, d.path_is_relative AND "
                    + "starts_with(tbl.base, dp.data_path), now() FROM %1$s d JOIN tbl USING (table_id), dp "
                    + "WHERE NOT EXISTS (SELECT 1 FROM ducklake_files_scheduled_for_deletion x "
                    + "WHERE x.data_file_id = d.%2$s)";
            String bases = "WITH " + CatalogFiles.TABLE_BASES + " ";
            s.execute(bases + queue.formatted("_expire_dead_data", "data_file_id"));
            s.execute(bases + queue.formatted("_expire_dead_delete", "delete_file_id"));
            s.execute("DELETE FROM ducklake_file_column_stats WHERE data_file_id IN "
                    + "(SELECT data_file_id FROM _expire_dead_data)");
            s.execute("DELETE FROM ducklake_file_partition_value WHERE data_file_id IN "
                    + "(SELECT data_file_id FROM _expire_dead_data)");
            if (variantStats) {
                s.execute("DELETE FROM ducklake_file_variant_stats WHERE data_file_id IN "
                        + "(SELECT data_file_id FROM _expire_dead_data)");
            }
            s.execute("DELETE FROM ducklake_data_file WHERE data_file_id IN (SELECT data_file_id FROM _expire_dead_data)");
            s.execute("DELETE FROM ducklake_delete_file WHERE delete_file_id IN "
                    + "(SELECT delete_file_id FROM _expire_dead_delete)");
            s.execute("DELETE FROM ducklake_snapshot_changes WHERE snapshot_id IN (" + idList + ")");
            s.execute("DELETE FROM ducklake_snapshot WHERE snapshot_id IN (" + idList + ")");
            c.commit();
            return new long[]{deadData, deadDelete};
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private static long count(Statement s, String table) throws SQLException {
        try (var rs = s.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private boolean tableExists(String name) throws SQLException {
        return LakeSession.queryLong(catalog(), "SELECT count(*) FROM information_schema.tables WHERE table_schema = "
                + "current_schema() AND table_name = " + DuckLakeSql.literal(name)) > 0;
    }

    // ---------------------------------------------------------------- repairs

    /**
     * Drops duplicate paths from the deletion queue (one row per path is kept). A path queued twice makes the second
     * S3 DELETE fail with NoSuchKey, which rolls back a whole cleanup-all. Returns the duplicates found.
     */
    public long dedupDeletions(boolean dryRun) throws SQLException {
        long dups = pendingDuplicates();
        LOG.infof("dedup-deletions: %d duplicate row(s) in the deletion queue (dry_run=%s)", dups, dryRun);
        if (dryRun || dups == 0) {
            return dups;
        }
        session.lock();
        LakeSession.execute(catalog(), "DELETE FROM ducklake_files_scheduled_for_deletion WHERE ctid NOT IN "
                + "(SELECT min(ctid) FROM ducklake_files_scheduled_for_deletion GROUP BY path)");
        LOG.infof("dedup-deletions: %d duplicate row(s) left", pendingDuplicates());
        return dups;
    }

    long pendingDuplicates() throws SQLException {
        return LakeSession.queryLong(catalog(),
                "SELECT count(*) - count(DISTINCT path) FROM ducklake_files_scheduled_for_deletion");
    }

    /** Stats rows whose table has no live version: pure weight on every commit, which reads both stats tables. */
    private static String orphanStats(String alias) {
        return "NOT EXISTS (SELECT 1 FROM ducklake_table t WHERE t.table_id = " + alias + ".table_id "
                + "AND t.end_snapshot IS NULL)";
    }

    /** Deletes the global stats rows of dropped tables. Returns {table-stats rows, column-stats rows} found. */
    public long[] purgeOrphanStats(boolean dryRun) throws SQLException {
        long[] before = orphanStatsCounts();
        LOG.infof("purge-orphan-stats: %d orphaned table-stats row(s), %d orphaned column-stats row(s) (dry_run=%s)",
                before[0], before[1], dryRun);
        if (dryRun || before[0] + before[1] == 0) {
            return before;
        }
        session.lock();
        Connection c = catalog();
        c.setAutoCommit(false);
        // One transaction: a reader must never see a table's stats row without its column-stats rows.
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL statement_timeout = '300s'");
            s.execute("SET LOCAL lock_timeout = '30s'");
            s.execute("DELETE FROM ducklake_table_stats ts WHERE " + orphanStats("ts"));
            s.execute("DELETE FROM ducklake_table_column_stats cs WHERE " + orphanStats("cs"));
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
        long[] after = orphanStatsCounts();
        LOG.infof("purge-orphan-stats: %d/%d orphaned row(s) left", after[0], after[1]);
        return before;
    }

    long[] orphanStatsCounts() throws SQLException {
        List<String> row = LakeSession.queryRows(catalog(), "SELECT (SELECT count(*) FROM ducklake_table_stats ts WHERE "
                + orphanStats("ts") + "), (SELECT count(*) FROM ducklake_table_column_stats cs WHERE "
                + orphanStats("cs") + ")").get(0);
        return new long[]{Long.parseLong(row.get(0)), Long.parseLong(row.get(1))};
    }

    /**
     * Rewrites the partition values of live data files whose {@code ducklake_file_partition_value} rows are missing,
     * duplicated or disagree with the {@code key=value} segments of their path, in one Postgres transaction. Files
     * whose path cannot supply the values are reported and left alone. Returns every file found (repaired, or that
     * would be, and those left alone).
     */
    public List<PartitionValueRepair.Finding> repairPartitionValues(boolean dryRun) throws SQLException {
        if (!dryRun) {
            session.lock();
        }
        PartitionValueRepair repair = new PartitionValueRepair(catalog());
        List<PartitionValueRepair.Finding> findings = repair.find();
        for (PartitionValueRepair.Finding f : findings) {
            if (f.repairable()) {
                LOG.infof("repair-partition-values: %s file %d of %s (%s): recorded %s, path says %s",
                        dryRun ? "would repair" : "repairing", f.dataFileId(), f.table(), f.path(), f.recorded(),
                        f.fromPath());
            } else {
                LOG.warnf("repair-partition-values: leaving file %d of %s (%s) alone: recorded %s, and %s",
                        f.dataFileId(), f.table(), f.path(), f.recorded(), f.problem());
            }
        }
        if (!dryRun) {
            repair.apply(findings);
        }
        return findings;
    }

    // ---------------------------------------------------------------- orphans

    /**
     * Rows of the deletion queue whose object no longer exists. They make the next cleanup-all fail (NoSuchKey rolls
     * the whole transaction back, while the objects it already deleted stay deleted, which makes more of them).
     */
    public List<QueuedFile> findOrphans() throws SQLException {
        Set<String> objects = CatalogFiles.objects(duck(), CatalogFiles.dataPath(catalog()));
        List<QueuedFile> orphans = CatalogFiles.scheduledForDeletion(catalog()).stream()
                .filter(s -> !objects.contains(s.absolutePath())).toList();
        LOG.infof("find-orphans: %d catalog row(s) reference objects that no longer exist", orphans.size());
        return orphans;
    }

    /**
     * Removes the deletion-queue rows whose object is gone, after two gates: the catalog has live data files and
     * none of them has an orphan's path (B1), and no live delete file points at an orphan's data_file_id (B3).
     * Returns the orphans found.
     */
    public List<QueuedFile> healOrphans(boolean dryRun) throws SQLException {
        if (!dryRun) {
            session.lock();
        }
        List<QueuedFile> orphans = findOrphans();
        if (orphans.isEmpty()) {
            return orphans;
        }
        Map<Long, String> live = CatalogFiles.dataFiles(catalog(), true);
        if (live.isEmpty()) {
            throw new SQLException("heal-orphans safety gate B1 failed: ducklake_data_file has no live rows. Refusing "
                    + "to operate on a vacuous catalog.");
        }
        Set<String> livePaths = new HashSet<>(live.values());
        long stillLive = orphans.stream().filter(o -> livePaths.contains(o.absolutePath())).count();
        if (stillLive > 0) {
            throw new SQLException("heal-orphans safety gate B1 failed: " + stillLive + " of the " + orphans.size()
                    + " 'orphan' paths are live data files. Aborting: these are not orphans.");
        }
        String ids = orphans.stream().map(o -> Long.toString(o.dataFileId())).collect(Collectors.joining(", "));
        long vectors = LakeSession.queryLong(catalog(), "SELECT count(*) FROM ducklake_delete_file "
                + "WHERE end_snapshot IS NULL AND data_file_id IN (" + ids + ")");
        if (vectors > 0) {
            throw new SQLException("heal-orphans safety gate B3 failed: " + vectors + " live delete file(s) reference "
                    + "'orphan' data_file_ids. Aborting: those files are still live for delete lookups.");
        }
        LOG.infof("heal-orphans: safety gates B1 and B3 passed; %d row(s) %s", orphans.size(),
                dryRun ? "would be removed" : "to remove");
        if (!dryRun) {
            String paths = orphans.stream().map(o -> DuckLakeSql.literal(o.storedPath()))
                    .collect(Collectors.joining(", "));
            LakeSession.execute(catalog(), "DELETE FROM ducklake_files_scheduled_for_deletion WHERE path IN ("
                    + paths + ")");
            LOG.infof("heal-orphans: %d orphan row(s) removed from the deletion queue", orphans.size());
        }
        return orphans;
    }

    /** dedup + heal-orphans + cleanup-all, again until cleanup-all succeeds. Returns the attempts it took. */
    public int cleanupAllSafe(int maxIterations) throws SQLException {
        if (maxIterations < 1) {
            throw new IllegalArgumentException("--max-iterations must be >= 1");
        }
        session.lock();
        for (int attempt = 1; attempt <= maxIterations; attempt++) {
            LOG.infof("cleanup-all-safe: attempt %d / %d", attempt, maxIterations);
            dedupDeletions(false);
            healOrphans(false);
            try {
                cleanupAll();
                LOG.infof("cleanup-all-safe: cleanup-all succeeded on attempt %d", attempt);
                return attempt;
            } catch (SQLException e) {
                if (e instanceof MaintenanceLock.LockHeldException) {
                    throw e;
                }
                LOG.warnf("cleanup-all-safe: cleanup-all failed on attempt %d (%s); healing fresh orphans", attempt,
                        e.getMessage());
            }
        }
        throw new SQLException("cleanup-all-safe exhausted " + maxIterations
                + " iterations without a clean cleanup-all run");
    }

    /** cleanup-all-safe, then the objects under the data path no catalog row references. */
    public void fsck(boolean dryRun, int maxIterations) throws SQLException {
        if (dryRun) {
            dedupDeletions(true);
            healOrphans(true);
            orphans(true);
            return;
        }
        cleanupAllSafe(maxIterations);
        orphans(false);
    }

    /** DuckLake's deletion of objects under the data path that no catalog row references. Returns them. */
    public List<String> orphans(boolean dryRun) throws SQLException {
        if (!dryRun) {
            session.lock();
        }
        LOG.infof("Deleting orphaned files (dry_run=%s)", dryRun);
        List<String> files = firstColumn(LakeSession.queryRows(duck(),
                "CALL ducklake_delete_orphaned_files(" + LAKE + ", dry_run => " + dryRun + ")"));
        LOG.infof("orphans: %d file(s)%s", files.size(), dryRun ? " would be deleted" : " deleted");
        return files;
    }

    // ---------------------------------------------------------------- catalog indexes

    /** The catalog btrees the maintenance scans and the commit path's per-file joins need. */
    static final List<CatalogIndex> INDEXES = List.of(
            new CatalogIndex("millpond_data_file_table_end", "ducklake_data_file", "table_id, end_snapshot"),
            new CatalogIndex("millpond_data_file_end", "ducklake_data_file", "end_snapshot"),
            new CatalogIndex("millpond_data_file_begin", "ducklake_data_file", "begin_snapshot"),
            new CatalogIndex("millpond_delete_file_data_file", "ducklake_delete_file", "data_file_id"),
            new CatalogIndex("millpond_delete_file_table_end", "ducklake_delete_file", "table_id, end_snapshot"),
            new CatalogIndex("millpond_file_column_stats_file", "ducklake_file_column_stats", "data_file_id"),
            new CatalogIndex("millpond_file_partition_value_file", "ducklake_file_partition_value", "data_file_id"),
            new CatalogIndex("millpond_scheduled_deletion_path", "ducklake_files_scheduled_for_deletion", "path"),
            new CatalogIndex("millpond_snapshot_time", "ducklake_snapshot", "snapshot_time"));

    record CatalogIndex(String name, String table, String columns) {
        String ddl() {
            return "CREATE INDEX CONCURRENTLY IF NOT EXISTS " + name + " ON " + table + " (" + columns + ")";
        }
    }

    /** Creates the missing catalog indexes (concurrently: writers keep committing). Returns the missing ones. */
    public List<String> ensureIndexes(boolean dryRun) throws SQLException {
        Set<String> present = new HashSet<>(firstColumn(LakeSession.queryRows(catalog(),
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")));
        List<String> missing = new ArrayList<>();
        for (CatalogIndex index : INDEXES) {
            if (!present.contains(index.name())) {
                missing.add(index.name());
            }
        }
        LOG.infof("ensure-indexes: %d of %d index(es) missing%s", missing.size(), INDEXES.size(),
                missing.isEmpty() ? "" : ": " + missing);
        if (dryRun || missing.isEmpty()) {
            return missing;
        }
        session.lock();
        for (CatalogIndex index : INDEXES) {
            if (missing.contains(index.name())) {
                LOG.infof("ensure-indexes: %s", index.ddl());
                LakeSession.execute(catalog(), index.ddl());
            }
        }
        return missing;
    }

    // ---------------------------------------------------------------- compaction

    public Compaction.Result compact(CompactionOptions options) throws SQLException {
        if (!options.dryRun()) {
            session.lock();
        }
        return new Compaction(session).run(options);
    }

    /** Merges up to {@code maxCompactedFiles} adjacent files of one table, leaving target_file_size alone. */
    public List<List<String>> compactProbe(String table, int maxCompactedFiles) throws SQLException {
        Compaction.requireIdentifier(table);
        session.lock();
        LOG.infof("compact-probe: table=%s max_compacted_files=%d", table, maxCompactedFiles);
        List<List<String>> rows = LakeSession.queryRows(duck(), "CALL ducklake_merge_adjacent_files(" + LAKE + ", "
                + DuckLakeSql.literal(table) + ", max_compacted_files => " + maxCompactedFiles + ")");
        rows.forEach(r -> LOG.infof("compact-probe: %s", r));
        return rows;
    }

    // ---------------------------------------------------------------- data inlining

    /** DuckDB's threads and memory limit for what follows in this session (a job inside the writer's pod). */
    public void limitDuckDb(int threads, String memoryLimit) throws SQLException {
        LakeSession.execute(duck(), "SET threads = " + threads);
        LakeSession.execute(duck(), "SET memory_limit = " + DuckLakeSql.literal(memoryLimit));
    }

    /**
     * Writes the rows DuckLake inlined into the catalog out to parquet, per table ({@link InlinedData}). A dry run
     * only counts them and takes no lock.
     */
    public InlinedData.Result flushInlined(Optional<String> table, boolean dryRun) throws SQLException {
        if (!dryRun) {
            session.lock();
        }
        return new InlinedData(session).run(table, dryRun);
    }

    // ---------------------------------------------------------------- rejects

    /** The pipeline's kept rejects, run again through its current settings ({@link RejectsReplay}). */
    public RejectsReplay.Result replayRejects(MillpondConfig config, Map<String, String> env,
                                              RejectsReplay.Options options) throws Exception {
        return new RejectsReplay(session, config, env).run(options);
    }

    private static List<String> firstColumn(List<List<String>> rows) {
        return rows.stream().map(r -> r.get(0)).collect(Collectors.toCollection(ArrayList::new));
    }
}
