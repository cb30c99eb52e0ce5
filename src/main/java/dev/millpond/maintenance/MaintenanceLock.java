package dev.millpond.maintenance;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The catalog-wide advisory lock every destructive maintenance command holds, so two runs (two CronJobs, a CronJob
 * and an operator, or two pods' scheduled jobs) never expire, clean or compact the same catalog at once. It is a
 * session lock on a dedicated Postgres connection: it is released when that connection closes, also when the
 * process dies. It does not serialise against the writers, which never take it.
 */
public final class MaintenanceLock {

    /** The key the original tools use, so old and new tools exclude each other. */
    public static final String KEY_SQL = "hashtext('millpond-ducklake-maintenance')::bigint";

    private MaintenanceLock() {
    }

    static void acquire(Connection catalog) throws SQLException {
        boolean acquired;
        try (Statement s = catalog.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_try_advisory_lock(" + KEY_SQL + ")")) {
            rs.next();
            acquired = rs.getBoolean(1);
        }
        if (!acquired) {
            throw new LockHeldException("Another maintenance session is holding the advisory lock ("
                    + holder(catalog) + "); aborting. If no other run is active, its connection may not have "
                    + "closed cleanly yet: wait a few seconds and retry.");
        }
    }

    /**
     * Who holds the lock, from {@code pg_locks} and {@code pg_stat_activity}. A bigint advisory key is stored as
     * classid = high 32 bits, objid = low 32 bits, objsubid = 1.
     */
    static String holder(Connection catalog) throws SQLException {
        String sql = "WITH k AS (SELECT " + KEY_SQL + " AS key) "
                + "SELECT a.pid, coalesce(a.application_name, ''), coalesce(a.usename::text, ''), "
                + "coalesce(host(a.client_addr), 'local'), a.backend_start, a.state "
                + "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid, k "
                + "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
                + "AND l.classid::text::bigint = ((k.key >> 32) & 4294967295) "
                + "AND l.objid::text::bigint = (k.key & 4294967295) AND l.database = "
                + "(SELECT oid FROM pg_database WHERE datname = current_database())";
        try (Statement s = catalog.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) {
                return "the holder has just released it or is not visible to this user";
            }
            return "held by pid " + rs.getInt(1) + " '" + rs.getString(2) + "', user " + rs.getString(3) + " from "
                    + rs.getString(4) + ", connected since " + rs.getString(5) + ", state " + rs.getString(6);
        }
    }

    /** A second run found the lock taken. */
    public static final class LockHeldException extends SQLException {
        LockHeldException(String message) {
            super(message);
        }
    }
}
