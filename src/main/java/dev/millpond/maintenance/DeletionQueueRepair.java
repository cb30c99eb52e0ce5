package dev.millpond.maintenance;

import dev.millpond.ducklake.DuckLakeSql;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Repairs of the deletion queue that a cleanup-all trips over (a path queued twice, a queued object already gone), and
 * the runs that heal and clean up until it succeeds ({@code cleanup-all-safe}, {@code fsck}).
 */
final class DeletionQueueRepair {

    /** The category the lake upkeep's log lines have always carried, whichever operation logs them. */
    private static final Logger LOG = Logger.getLogger(LakeMaintenance.class);

    private final LakeSession session;
    private final FileCleanup cleanup;

    DeletionQueueRepair(LakeSession session) {
        this.session = session;
        this.cleanup = new FileCleanup(session);
    }

    private Connection duck() {
        return session.duck();
    }

    private Connection catalog() {
        return session.catalog();
    }

    /**
     * Drops duplicate paths from the deletion queue (one row per path is kept). A path queued twice makes the second
     * S3 DELETE fail with NoSuchKey, which rolls back a whole cleanup-all. Returns the duplicates found.
     */
    long dedupDeletions(boolean dryRun) throws SQLException {
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

    /**
     * Rows of the deletion queue whose object no longer exists. They make the next cleanup-all fail (NoSuchKey rolls
     * the whole transaction back, while the objects it already deleted stay deleted, which makes more of them).
     */
    List<QueuedFile> findOrphans() throws SQLException {
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
    List<QueuedFile> healOrphans(boolean dryRun) throws SQLException {
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
    int cleanupAllSafe(int maxIterations) throws SQLException {
        if (maxIterations < 1) {
            throw new IllegalArgumentException("--max-iterations must be >= 1");
        }
        session.lock();
        for (int attempt = 1; attempt <= maxIterations; attempt++) {
            LOG.infof("cleanup-all-safe: attempt %d / %d", attempt, maxIterations);
            dedupDeletions(false);
            healOrphans(false);
            try {
                cleanup.cleanupAll();
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
    void fsck(boolean dryRun, int maxIterations) throws SQLException {
        if (dryRun) {
            dedupDeletions(true);
            healOrphans(true);
            cleanup.orphans(true);
            return;
        }
        cleanupAllSafe(maxIterations);
        cleanup.orphans(false);
    }
}
