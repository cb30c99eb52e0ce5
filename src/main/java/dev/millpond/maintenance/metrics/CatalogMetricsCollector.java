package dev.millpond.maintenance.metrics;

import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.maintenance.MaintenanceSettings;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs the exporter's queries on one DuckDB connection with the lake attached, each when its interval is due, and
 * records results and self metrics in {@link CatalogMetricsState}. Ten consecutive query failures close the
 * connection; the next tick reconnects, backing off from 1 s, doubling, up to 60 s. One thread calls {@link #tick()}.
 */
public final class CatalogMetricsCollector implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CatalogMetricsCollector.class);
    static final int FAILURES_BEFORE_RECONNECT = 10;

    private final MaintenanceSettings settings;
    private final Optional<String> memoryLimit;
    private final List<CatalogQuery> queries;
    private final CatalogMetricsState state;
    private final Map<String, Long> nextRunNanos = new HashMap<>();
    private Connection connection;
    private int consecutiveFailures;
    private long connectBackoffMillis = 1000;
    private long nextConnectNanos = System.nanoTime();
    private volatile boolean everConnected;
    /** When the running query started (nanoTime), or 0 when none is in flight; read by the liveness probe. */
    private volatile long inFlightSince;
    private volatile long lastTickNanos = System.nanoTime();

    public CatalogMetricsCollector(MaintenanceSettings settings, Optional<String> memoryLimit, List<CatalogQuery> queries,
            CatalogMetricsState state) {
        this.settings = settings;
        this.memoryLimit = memoryLimit;
        this.queries = List.copyOf(queries);
        this.state = state;
    }

    public boolean everConnected() {
        return everConnected;
    }

    public long inFlightSinceNanos() {
        return inFlightSince;
    }

    public long lastTickNanos() {
        return lastTickNanos;
    }

    /** Connects (once). Throws on failure, for the one-shot mode. */
    public void connect() throws SQLException {
        Connection c = settings.attachment().open();
        try {
            if (memoryLimit.isPresent()) {
                try (Statement s = c.createStatement()) {
                    s.execute("SET memory_limit = " + DuckLakeSql.literal(memoryLimit.get()));
                }
            }
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        connection = c;
        everConnected = true;
        consecutiveFailures = 0;
        connectBackoffMillis = 1000;
        state.up(true);
        LOG.infof("Connected to the lake: %s", settings.describeTarget().replace("Target catalog: ", ""));
    }

    /** One pass: reconnect if needed and due, then run every query whose interval has come round. */
    public void tick() {
        lastTickNanos = System.nanoTime();
        if (connection == null) {
            if (System.nanoTime() < nextConnectNanos) {
                return;
            }
            try {
                connect();
            } catch (SQLException e) {
                LOG.warnf("Connecting to the lake failed (next try in %d s): %s", connectBackoffMillis / 1000,
                        e.getMessage());
                nextConnectNanos = System.nanoTime() + connectBackoffMillis * 1_000_000L;
                connectBackoffMillis = Math.min(60_000, connectBackoffMillis * 2);
                return;
            }
        }
        for (CatalogQuery q : queries) {
            long now = System.nanoTime();
            if (now < nextRunNanos.getOrDefault(q.name(), Long.MIN_VALUE)) {
                continue;
            }
            nextRunNanos.put(q.name(), now + q.interval().toNanos());
            if (!runOne(q)) {
                if (++consecutiveFailures >= FAILURES_BEFORE_RECONNECT) {
                    LOG.warnf("%d consecutive query failures: reconnecting", consecutiveFailures);
                    disconnect();
                    return;
                }
            } else {
                consecutiveFailures = 0;
            }
            lastTickNanos = System.nanoTime();
        }
    }

    /** Runs every query once now (the one-shot mode). Returns how many succeeded. */
    public int runAllOnce() {
        int ok = 0;
        for (CatalogQuery q : queries) {
            if (runOne(q)) {
                ok++;
            }
        }
        return ok;
    }

    private boolean runOne(CatalogQuery q) {
        long start = System.nanoTime();
        inFlightSince = start;
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(q.sql())) {
            List<CatalogMetricsState.Sample> samples = samples(q, rs);
            state.success(q.name(), samples, (System.nanoTime() - start) / 1e9, System.currentTimeMillis() / 1000.0);
            return true;
        } catch (SQLException | RuntimeException e) {
            state.failure(q.name(), (System.nanoTime() - start) / 1e9);
            LOG.warnf("Query %s failed: %s", q.name(), e.getMessage());
            return false;
        } finally {
            inFlightSince = 0;
        }
    }

    private static List<CatalogMetricsState.Sample> samples(CatalogQuery q, ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            String column = md.getColumnLabel(i);
            if (!q.labels().contains(column)) {
                values.add(column);
            }
        }
        List<CatalogMetricsState.Sample> samples = new ArrayList<>();
        while (rs.next()) {
            Map<String, String> labels = new LinkedHashMap<>();
            for (String l : q.labels()) {
                String v = rs.getString(l);
                labels.put(l, v == null ? "" : v);
            }
            for (String column : values) {
                Object v = rs.getObject(column);
                if (v instanceof Number n) {
                    samples.add(new CatalogMetricsState.Sample(q.metricName(column), labels, n.doubleValue()));
                } else if (v instanceof Boolean b) {
                    samples.add(new CatalogMetricsState.Sample(q.metricName(column), labels, b ? 1 : 0));
                }
                // NULL or non-numeric values have no gauge value: skipped.
            }
        }
        return samples;
    }

    private void disconnect() {
        state.up(false);
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debugf("Closing DuckDB failed: %s", e.getMessage());
            }
            connection = null;
        }
        nextConnectNanos = System.nanoTime() + connectBackoffMillis * 1_000_000L;
    }

    @Override
    public void close() {
        disconnect();
    }
}
