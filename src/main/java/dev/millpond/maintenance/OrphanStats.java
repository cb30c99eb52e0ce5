package dev.millpond.maintenance;

import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** The global stats rows of dropped tables, and their purge. */
final class OrphanStats {

    /** The category the lake upkeep's log lines have always carried, whichever operation logs them. */
    private static final Logger LOG = Logger.getLogger(LakeMaintenance.class);

    private final LakeSession session;

    OrphanStats(LakeSession session) {
        this.session = session;
    }

    private Connection catalog() {
        return session.catalog();
    }

    /** Stats rows whose table has no live version: pure weight on every commit, which reads both stats tables. */
    private static String orphanStats(String alias) {
        return "NOT EXISTS (SELECT 1 FROM ducklake_table t WHERE t.table_id = " + alias + ".table_id "
                + "AND t.end_snapshot IS NULL)";
    }

    /** Deletes the global stats rows of dropped tables. Returns {table-stats rows, column-stats rows} found. */
    long[] purge(boolean dryRun) throws SQLException {
        long[] before = counts();
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
        long[] after = counts();
        LOG.infof("purge-orphan-stats: %d/%d orphaned row(s) left", after[0], after[1]);
        return before;
    }

    long[] counts() throws SQLException {
        List<String> row = LakeSession.queryRows(catalog(), "SELECT (SELECT count(*) FROM ducklake_table_stats ts WHERE "
                + orphanStats("ts") + "), (SELECT count(*) FROM ducklake_table_column_stats cs WHERE "
                + orphanStats("cs") + ")").get(0);
        return new long[]{Long.parseLong(row.get(0)), Long.parseLong(row.get(1))};
    }
}
