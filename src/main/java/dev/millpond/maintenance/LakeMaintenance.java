package dev.millpond.maintenance;

import dev.millpond.config.MillpondConfig;
import dev.millpond.ducklake.DuckLakeSql;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The lake upkeep operations, one entry for the CLI and the scheduled jobs; the larger ones are done by a class named
 * for them ({@link SnapshotExpiry}, {@link FileCleanup}, {@link DeletionQueueRepair}, {@link OrphanStats},
 * {@link CatalogIndexes}, {@link Compaction}, {@link PartitionValueRepair}, {@link InlinedData},
 * {@link RejectsReplay}), the one-statement ones are here.
 * Every operation that changes the catalog or deletes objects takes the maintenance advisory lock first; a dry run
 * changes nothing and takes no lock. Operations log what they do and return what they found, so callers and tests can
 * check it.
 */
public final class LakeMaintenance {

    private static final Logger LOG = Logger.getLogger(LakeMaintenance.class);
    private static final String LAKE = "'lake'";
    /** The snapshot id list is inlined into every statement of a batch; bigger lists make multi-megabyte SQL. */
    public static final int MAX_EXPIRE_BATCH_SIZE = SnapshotExpiry.MAX_BATCH_SIZE;

    private final LakeSession session;
    private final SnapshotExpiry expiry;
    private final FileCleanup cleanup;
    private final DeletionQueueRepair deletionQueue;

    public LakeMaintenance(LakeSession session) {
        this.session = session;
        this.expiry = new SnapshotExpiry(session);
        this.cleanup = new FileCleanup(session);
        this.deletionQueue = new DeletionQueueRepair(session);
    }

    private Connection duck() {
        return session.duck();
    }

    private Connection catalog() {
        return session.catalog();
    }

    // ---------------------------------------------------------------- snapshot and file lifecycle

    /** DuckLake's snapshot expiry. Returns the number of snapshots expired (or that would be). */
    public int expire(int days, boolean dryRun) throws SQLException {
        return expiry.expire(days, dryRun);
    }

    /** Deletes the files scheduled for deletion more than {@code days} ago. Returns the files deleted. */
    public List<String> cleanup(int days, boolean dryRun) throws SQLException {
        return cleanup.cleanup(days, dryRun);
    }

    /** Deletes every file scheduled for deletion, whatever its age. It has no preview form, so no dry run. */
    public List<String> cleanupAll() throws SQLException {
        return cleanup.cleanupAll();
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

    /** Snapshot expiry in bounded batches, done in Postgres. Returns the snapshots expired (or expirable). */
    public long expireSnapshots(int days, int batchSize, Integer numBatches, boolean dryRun) throws SQLException {
        return expiry.expireSnapshots(days, batchSize, numBatches, dryRun);
    }

    // ---------------------------------------------------------------- repairs

    /** Drops duplicate paths from the deletion queue. Returns the duplicates found. */
    public long dedupDeletions(boolean dryRun) throws SQLException {
        return deletionQueue.dedupDeletions(dryRun);
    }

    /** Deletes the global stats rows of dropped tables. Returns {table-stats rows, column-stats rows} found. */
    public long[] purgeOrphanStats(boolean dryRun) throws SQLException {
        return new OrphanStats(session).purge(dryRun);
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

    /** Rows of the deletion queue whose object no longer exists. */
    public List<QueuedFile> findOrphans() throws SQLException {
        return deletionQueue.findOrphans();
    }

    /** Removes the deletion-queue rows whose object is gone, after the safety gates. Returns the orphans found. */
    public List<QueuedFile> healOrphans(boolean dryRun) throws SQLException {
        return deletionQueue.healOrphans(dryRun);
    }

    /** dedup + heal-orphans + cleanup-all, again until cleanup-all succeeds. Returns the attempts it took. */
    public int cleanupAllSafe(int maxIterations) throws SQLException {
        return deletionQueue.cleanupAllSafe(maxIterations);
    }

    /** cleanup-all-safe, then the objects under the data path no catalog row references. */
    public void fsck(boolean dryRun, int maxIterations) throws SQLException {
        deletionQueue.fsck(dryRun, maxIterations);
    }

    /** DuckLake's deletion of objects under the data path that no catalog row references. Returns them. */
    public List<String> orphans(boolean dryRun) throws SQLException {
        return cleanup.orphans(dryRun);
    }

    // ---------------------------------------------------------------- catalog indexes

    /** Creates the missing catalog indexes (concurrently: writers keep committing). Returns the missing ones. */
    public List<String> ensureIndexes(boolean dryRun) throws SQLException {
        return new CatalogIndexes(session).ensure(dryRun);
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
}
