package dev.millpond.maintenance;

import dev.millpond.ducklake.DuckLakeSql;
import org.jboss.logging.Logger;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One maintenance run's two connections: DuckDB with the lake attached as {@code lake} (for DuckLake's own
 * functions), and a plain Postgres session on the catalog database (for the advisory lock, which lives as long as
 * this session, and for catalog statements DuckLake has no function for). The catalog tables live in Postgres'
 * {@code public} schema; DuckDB shows the same tables as {@code __ducklake_metadata_lake}.
 */
public final class LakeSession implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LakeSession.class);

    private final MaintenanceSettings settings;
    private final Connection duck;
    private final Connection catalog;
    private boolean lockHeld;

    private LakeSession(MaintenanceSettings settings, Connection duck, Connection catalog) {
        this.settings = settings;
        this.duck = duck;
        this.catalog = catalog;
    }

    /** {@code purpose} names this run in {@code pg_stat_activity}, so a second run can say who holds the lock. */
    public static LakeSession open(MaintenanceSettings settings, String purpose) throws SQLException {
        Connection catalog = openCatalog(settings, purpose);
        try {
            Connection duck = settings.attachment().open();
            try {
                // DuckLake runs some statements (the listing behind ducklake_delete_orphaned_files, also used by
                // CHECKPOINT) in a context of its own, which sees global settings only: without this it lists the
                // bucket on the default AWS endpoint.
                for (var s3 : settings.attachment().s3Settings()) {
                    execute(duck, "SET GLOBAL " + s3.name() + " = " + DuckLakeSql.literal(s3.value()));
                }
            } catch (SQLException e) {
                duck.close();
                throw e;
            }
            return new LakeSession(settings, duck, catalog);
        } catch (SQLException | RuntimeException e) {
            catalog.close();
            throw e;
        }
    }

    static Connection openCatalog(MaintenanceSettings settings, String purpose) throws SQLException {
        // A data source rather than DriverManager, which also refuses a driver from another class loader.
        Connection c = settings.catalogDataSource(applicationName(purpose)).getConnection();
        c.setAutoCommit(true);
        return c;
    }

    private static String applicationName(String purpose) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "unknown-host";
        }
        String name = "millpond-maintenance " + purpose + " on " + host + " (pid "
                + ManagementFactory.getRuntimeMXBean().getPid() + ")";
        // Postgres truncates application_name at 63 bytes.
        return name.length() > 63 ? name.substring(0, 63) : name;
    }

    public MaintenanceSettings settings() {
        return settings;
    }

    public Connection duck() {
        return duck;
    }

    public Connection catalog() {
        return catalog;
    }

    /**
     * Takes the maintenance advisory lock on the catalog session, once per session (Postgres advisory locks are
     * re-entrant per session, but one acquisition keeps the release simple: closing the session releases it).
     */
    public void lock() throws SQLException {
        if (!lockHeld) {
            MaintenanceLock.acquire(catalog);
            lockHeld = true;
        }
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    static long queryLong(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0L;
        }
    }

    /** Every row of {@code sql}, each as its columns' text. */
    static List<List<String>> queryRows(Connection c, String sql) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The first column of {@code rows}. */
    static List<String> firstColumn(List<List<String>> rows) {
        return rows.stream().map(r -> r.get(0)).collect(Collectors.toCollection(ArrayList::new));
    }

    @Override
    public void close() {
        try {
            duck.close();
        } catch (SQLException e) {
            LOG.warnf("Closing DuckDB failed: %s", e.getMessage());
        }
        try {
            catalog.close(); // releases the advisory lock
        } catch (SQLException e) {
            LOG.warnf("Closing the catalog session failed: %s", e.getMessage());
        }
    }
}
