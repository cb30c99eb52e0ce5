package dev.millpond.maintenance;

import dev.millpond.ducklake.DuckLakeSql;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static dev.millpond.maintenance.LakeSession.firstColumn;

/**
 * Expiring old snapshots: DuckLake's own expiry, and the batched one done in Postgres for catalogs too large for it.
 * The files only expired snapshots could see are queued for deletion; {@link FileCleanup} deletes them.
 */
final class SnapshotExpiry {

    /** The category the lake upkeep's log lines have always carried, whichever operation logs them. */
    private static final Logger LOG = Logger.getLogger(LakeMaintenance.class);
    private static final String LAKE = "'lake'";
    /** The snapshot id list is inlined into every statement of a batch; bigger lists make multi-megabyte SQL. */
    static final int MAX_BATCH_SIZE = 10_000;

    private final LakeSession session;

    SnapshotExpiry(LakeSession session) {
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

    /** DuckLake's snapshot expiry. Returns the number of snapshots expired (or that would be). */
    int expire(int days, boolean dryRun) throws SQLException {
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

    /**
     * Snapshot expiry done in Postgres, in bounded batches of snapshot ids, because DuckLake's own expiry loads every
     * expired snapshot into memory before it deletes anything. Per batch, in one Postgres transaction: the files that
     * only expired snapshots could see are queued for deletion and their rows removed, then the snapshots. The newest
     * snapshot is never expired (DuckLake resolves all state from it). Returns the snapshots expired (or expirable).
     */
    long expireSnapshots(int days, int batchSize, Integer numBatches, boolean dryRun) throws SQLException {
        requireDays(days);
        if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
            throw new IllegalArgumentException("--batch-size must be between 1 and " + MAX_BATCH_SIZE);
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
}
