package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.CommitContention;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The writer's own tables beside the data table ({@code _millpond_offsets}, {@code _millpond_rejects}). Pods starting
 * together race on creating them; a loser whose statement failed finds the winner's table and carries on.
 */
final class SideTables {

    private static final Logger LOG = Logger.getLogger(SideTables.class);

    @FunctionalInterface
    interface SqlAction {
        void run() throws SQLException;
    }

    @FunctionalInterface
    interface SqlCheck {
        boolean holds() throws SQLException;
    }

    private SideTables() {
    }

    /**
     * Runs {@code create}; when it fails, {@code ready} decides whether another writer already did the work, and
     * contention or "already exists" is retried a few times before the failure is raised.
     */
    static void create(String qualified, SqlAction create, SqlCheck ready) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                create.run();
                return;
            } catch (SQLException e) {
                if (ready.holds()) {
                    LOG.debugf("%s was created concurrently by another writer", qualified);
                    return;
                }
                if (attempt >= 5 || !CommitContention.isContention(e) && !String.valueOf(e.getMessage())
                        .contains("already exists")) {
                    throw new SQLException("Failed to create " + qualified + ": " + e.getMessage(), e);
                }
                try {
                    Thread.sleep(200L * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted while creating " + qualified, ie);
                }
            }
        }
    }

    /** Whether {@code lake.<schema>.<table>} exists. */
    static boolean exists(Connection connection, String schema, String table) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM information_schema.tables "
                + "WHERE table_catalog = 'lake' AND table_schema = ? AND table_name = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
