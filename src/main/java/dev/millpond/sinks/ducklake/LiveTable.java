package dev.millpond.sinks.ducklake;

import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import org.apache.arrow.vector.types.pojo.Field;
import org.jboss.logging.Logger;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Keeps the live table in step with the batches (COMPAT §5.2, §5.4, decisions D1, D4, D9): creates it, applies the
 * partition spec, adds and widens columns, ensures VARIANT companions, and caches the live schema between flushes.
 *
 * <p>A refused DDL statement never fails the write: it is counted ({@code errors_total{type="schema"}}) and the
 * batch is aligned to whatever the table really has. Only commit contention with another pod propagates, so the
 * pump's retry ladder can back off, call {@link #reset()} and try again against the catalog's new state.
 */
final class LiveTable {

    private static final Logger LOG = Logger.getLogger(LiveTable.class);

    private final LakeTable table;
    private final MillpondMetrics metrics;
    private final Optional<String> partitionBy;
    /** Messages already logged at WARN; a mismatch that persists is counted every flush but logged once. */
    private final Set<String> warned = new HashSet<>();
    /** Sources whose companion could not be made a VARIANT column; retried after {@link #reset()}. */
    private final Set<String> refusedCompanions = new HashSet<>();

    private boolean ensured;
    private LiveSchema cached;

    LiveTable(LakeTable table, MillpondMetrics metrics, Optional<String> partitionBy) {
        this.table = table;
        this.metrics = metrics;
        this.partitionBy = partitionBy;
    }

    void reset() {
        ensured = false;
        cached = null;
        refusedCompanions.clear();
    }

    LiveSchema schema() throws SQLException {
        if (cached == null) {
            cached = table.readSchema();
        }
        return cached;
    }

    private LiveSchema reload() throws SQLException {
        cached = table.readSchema();
        return cached;
    }

    /** Creates the table from the batch columns if missing, then (D9) applies the partition spec either way. */
    void ensure(List<Field> columns) throws SQLException {
        if (ensured) {
            return;
        }
        if (!table.exists()) {
            String definitions = columns.stream()
                    .map(f -> DuckLakeSql.ident(f.getName()) + " " + DuckDbTypes.of(f))
                    .collect(Collectors.joining(", "));
            try {
                table.create(definitions);
                LOG.infof("Created table %s", table.displayName());
            } catch (SQLException e) {
                if (!table.exists()) {
                    throw new SQLException("Failed to create table " + table.displayName() + ": " + e.getMessage(), e);
                }
                LOG.debugf("Table %s was created concurrently by another writer", table.displayName());
            }
        }
        if (partitionBy.isPresent()) {
            applyPartitioning(partitionBy.get());
        }
        ensured = true;
        cached = null;
    }

    private void applyPartitioning(String expression) throws SQLException {
        try {
            // Idempotent: re-running it for an existing table with the same spec is harmless (D9).
            table.setPartitionedBy(expression);
        } catch (SQLException e) {
            if (CommitContention.isContention(e)) {
                // Retried from scratch by the pump; giving up here could leave the table unpartitioned for good.
                throw e;
            }
            warnOnce("partition:" + expression, "Could not set partitioning (%s) on %s; files stay unpartitioned: %s",
                    expression, table.displayName(), e.getMessage());
        }
    }

    /** Adds unknown columns and tries each type change; returns the live schema the INSERT must be aligned to. */
    LiveSchema evolve(List<Field> columns) throws SQLException {
        LiveSchema live = schema();
        for (Field field : columns) {
            Optional<LiveSchema.LiveColumn> column = live.find(field.getName());
            String wanted = DuckDbTypes.of(field);
            if (column.isEmpty()) {
                live = add(field.getName(), wanted);
            } else if (!column.get().type().equals(wanted)) {
                live = widen(field.getName(), column.get().type(), wanted, live);
            }
        }
        return live;
    }

    private LiveSchema add(String name, String wanted) throws SQLException {
        try {
            table.addColumnIfNotExists(name, wanted);
        } catch (SQLException e) {
            if (CommitContention.isContention(e)) {
                throw e;
            }
            LOG.debugf("ADD COLUMN %s %s failed: %s", name, wanted, e.getMessage());
        }
        LiveSchema live = reload();
        Optional<LiveSchema.LiveColumn> added = live.find(name);
        if (added.isPresent() && added.get().type().equals(wanted)) {
            metrics.schemaColumnAdded();
            LOG.infof("Added column %s %s to %s", name, wanted, table.displayName());
        } else {
            // Another writer added it with another type, or the catalog refused it: the live type wins (D4).
            metrics.error(ErrorType.SCHEMA);
            warnOnce("add:" + name + ":" + wanted, "Column %s could not be added as %s to %s (live: %s); aligning to the live table",
                    name, wanted, table.displayName(), added.map(LiveSchema.LiveColumn::type).orElse("absent"));
        }
        return live;
    }

    private LiveSchema widen(String name, String liveType, String wanted, LiveSchema live) throws SQLException {
        try {
            table.setDataType(name, wanted);
        } catch (SQLException e) {
            if (CommitContention.isContention(e)) {
                throw e;
            }
            metrics.error(ErrorType.SCHEMA);
            warnOnce("widen:" + name + ":" + liveType + ":" + wanted,
                    "Column %s stays %s (batch has %s); values are cast to the live type: %s",
                    name, liveType, wanted, e.getMessage());
            return live;
        }
        metrics.schemaColumnWidened();
        LOG.infof("Widened column %s from %s to %s", name, liveType, wanted);
        return reload();
    }

    /**
     * Makes sure each source's {@code <source>_variant} companion is a VARIANT column. This build never projects into a
     * companion, so every source present in a batch is counted as a schema error, every flush, with the reason
     * logged once: either DuckLake refuses the column (this DuckLake release has no VARIANT type), or the companion
     * exists with another type, or (on a release that accepts it) the uint64 guard the projection needs is missing.
     */
    void ensureCompanions(List<String> sources) throws SQLException {
        for (String source : sources) {
            String companion = VariantCompanions.companionOf(source);
            if (!refusedCompanions.contains(source)) {
                refusedCompanions.add(source);
                String reason = tryAddCompanion(companion);
                warnOnce("variant:" + source, "VARIANT dual-write for %s is off; %s still lands as text: %s",
                        source, source, reason);
            }
            metrics.error(ErrorType.SCHEMA);
        }
    }

    private String tryAddCompanion(String companion) throws SQLException {
        try {
            table.addColumnIfNotExists(companion, "VARIANT");
        } catch (SQLException e) {
            if (CommitContention.isContention(e)) {
                refusedCompanions.clear();
                throw e;
            }
            return "ADD COLUMN " + companion + " VARIANT failed: " + e.getMessage();
        }
        Optional<LiveSchema.LiveColumn> live = reload().find(companion);
        if (live.isEmpty() || !live.get().type().equals("VARIANT")) {
            return companion + " exists as " + live.map(LiveSchema.LiveColumn::type).orElse("nothing")
                    + " and DuckLake cannot ALTER it to VARIANT";
        }
        return companion + " is VARIANT, but this build does not project companions (no uint64 guard yet)";
    }

    private void warnOnce(String key, String format, Object... args) {
        if (warned.add(key)) {
            LOG.warnf(format, args);
        } else {
            LOG.debugf(format, args);
        }
    }
}
