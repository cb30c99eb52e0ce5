package dev.millpond.maintenance;

import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import static dev.millpond.maintenance.LakeSession.firstColumn;

/**
 * Deleting objects: those queued for deletion (by age, or all of them), and those under the data path that no catalog
 * row references.
 */
final class FileCleanup {

    /** The category the lake upkeep's log lines have always carried, whichever operation logs them. */
    private static final Logger LOG = Logger.getLogger(LakeMaintenance.class);
    private static final String LAKE = "'lake'";

    private final LakeSession session;

    FileCleanup(LakeSession session) {
        this.session = session;
    }

    private Connection duck() {
        return session.duck();
    }

    private Connection catalog() {
        return session.catalog();
    }

    /** Deletes the files scheduled for deletion more than {@code days} ago. Returns the files deleted. */
    List<String> cleanup(int days, boolean dryRun) throws SQLException {
        SnapshotExpiry.requireDays(days);
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
    List<String> cleanupAll() throws SQLException {
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

    /** DuckLake's deletion of objects under the data path that no catalog row references. Returns them. */
    List<String> orphans(boolean dryRun) throws SQLException {
        if (!dryRun) {
            session.lock();
        }
        LOG.infof("Deleting orphaned files (dry_run=%s)", dryRun);
        List<String> files = firstColumn(LakeSession.queryRows(duck(),
                "CALL ducklake_delete_orphaned_files(" + LAKE + ", dry_run => " + dryRun + ")"));
        LOG.infof("orphans: %d file(s)%s", files.size(), dryRun ? " would be deleted" : " deleted");
        return files;
    }
}
