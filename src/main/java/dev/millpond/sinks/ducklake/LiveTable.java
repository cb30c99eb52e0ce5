package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.CommitContention;
import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import org.apache.arrow.vector.types.pojo.Field;
import org.jboss.logging.Logger;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Keeps the live table in step with the batches, in the original's SQL shapes: creates it, applies the
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
    /** The most columns the table may have ({@code _inserted_at} included); the sink never adds past it. */
    private final int maxColumns;
    /** Messages already logged at WARN; a mismatch that persists is counted every flush but logged once. */
    private final Set<String> warned = new HashSet<>();
    /** Companions (folded) found to be VARIANT columns; checked again after {@link #reset()}. */
    private final Set<String> variantCompanions = new HashSet<>();
    /** Companions (folded) that could not be made VARIANT columns, with the reason; retried after {@link #reset()}. */
    private final Map<String, String> refusedCompanions = new HashMap<>();

    private boolean ensured;
    private LiveSchema cached;

    LiveTable(LakeTable table, MillpondMetrics metrics, Optional<String> partitionBy, int maxColumns) {
        this.table = table;
        this.maxColumns = maxColumns;
        this.metrics = metrics;
        this.partitionBy = partitionBy;
    }

    void reset() {
        ensured = false;
        cached = null;
        variantCompanions.clear();
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

    /**
     * Creates the table from the batch columns if missing, then applies the partition spec either way, so a table
     * created elsewhere is partitioned too.
     */
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
            // Idempotent: re-running it for an existing table with the same spec is harmless.
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

    /**
     * Adds unknown columns (all of them in one catalog commit) and tries each type change; returns the live schema the
     * INSERT must be aligned to. The table never grows past {@code maxColumns}: columns beyond it are not added (the
     * pump keeps records that need them out of the flush; this is the last guard when pods race to the bound).
     */
    LiveSchema evolve(List<Field> columns) throws SQLException {
        LiveSchema live = schema();
        Map<String, LakeTable.NewColumn> missing = new LinkedHashMap<>();
        for (Field field : columns) {
            if (live.find(field.getName()).isEmpty()) {
                missing.putIfAbsent(field.getName().toLowerCase(Locale.ROOT),
                        new LakeTable.NewColumn(field.getName(), DuckDbTypes.of(field)));
            }
        }
        if (!missing.isEmpty()) {
            live = addAll(new ArrayList<>(missing.values()), live);
        }
        for (Field field : columns) {
            if (missing.containsKey(field.getName().toLowerCase(Locale.ROOT))) {
                continue; // just added, or found added by another writer with its own type (counted there)
            }
            Optional<LiveSchema.LiveColumn> column = live.find(field.getName());
            String wanted = DuckDbTypes.of(field);
            if (column.isPresent() && !column.get().type().equals(wanted)) {
                live = widen(field.getName(), column.get().type(), wanted, live);
            }
        }
        return live;
    }

    private LiveSchema addAll(List<LakeTable.NewColumn> missing, LiveSchema live) throws SQLException {
        int room = Math.max(0, maxColumns - live.size());
        if (missing.size() > room) {
            metrics.error(ErrorType.SCHEMA);
            warnOnce("width:" + maxColumns, "%s has %d columns and may have at most %d; %d new column(s) of this flush"
                    + " are not added (first: %s)", table.displayName(), live.size(), maxColumns,
                    missing.size() - room, missing.get(room).name());
            missing = missing.subList(0, room);
            if (missing.isEmpty()) {
                return live;
            }
        }
        try {
            table.addColumnsIfNotExist(missing);
        } catch (SQLException e) {
            if (CommitContention.isContention(e)) {
                throw e;
            }
            // One column the catalog refuses would sink the whole transaction; find it by adding them one by one.
            LOG.debugf("Adding %d columns in one transaction failed (%s); adding them one by one", missing.size(),
                    e.getMessage());
            for (LakeTable.NewColumn c : missing) {
                addOne(c);
            }
        }
        live = reload();
        int added = 0;
        for (LakeTable.NewColumn c : missing) {
            Optional<LiveSchema.LiveColumn> now = live.find(c.name());
            if (now.isPresent() && now.get().type().equals(c.type())) {
                metrics.schemaColumnAdded();
                added++;
                LOG.debugf("Added column %s %s to %s", c.name(), c.type(), table.displayName());
            } else {
                // Another writer added it with another type, or the catalog refused it: the live type wins.
                metrics.error(ErrorType.SCHEMA);
                warnOnce("add:" + c.name() + ":" + c.type(), "Column %s could not be added as %s to %s (live: %s);"
                        + " aligning to the live table", c.name(), c.type(), table.displayName(),
                        now.map(LiveSchema.LiveColumn::type).orElse("absent"));
            }
        }
        if (added > 0) {
            LOG.infof("Added %d column(s) to %s%s", added, table.displayName(), added <= 10
                    ? ": " + missing.stream().map(LakeTable.NewColumn::name).collect(Collectors.joining(", ")) : "");
        }
        return live;
    }

    private void addOne(LakeTable.NewColumn c) throws SQLException {
        try {
            table.addColumnIfNotExists(c.name(), c.type());
        } catch (SQLException e) {
            if (CommitContention.isContention(e)) {
                throw e;
            }
            LOG.debugf("ADD COLUMN %s %s failed: %s", c.name(), c.type(), e.getMessage());
        }
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
     * Makes sure each source's companion is a VARIANT column and returns the sources that may be dual-written. A
     * companion found VARIANT is remembered until {@link #reset()}; one that exists with another type (DuckLake cannot
     * ALTER a column to VARIANT) or that the catalog refuses leaves its source string-only, and is counted as a schema
     * error on every flush that carries the source while the mismatch lasts, like any other refused column, and logged
     * once.
     */
    List<VariantCompanions.Source> ensureCompanions(List<VariantCompanions.Source> sources) throws SQLException {
        List<VariantCompanions.Source> writable = new ArrayList<>();
        for (VariantCompanions.Source source : sources) {
            String key = source.companion().toLowerCase(Locale.ROOT);
            if (variantCompanions.contains(key)) {
                writable.add(source);
                continue;
            }
            if (!refusedCompanions.containsKey(key)) {
                Optional<String> refusal = tryAddCompanion(source.companion());
                if (refusal.isEmpty()) {
                    variantCompanions.add(key);
                    writable.add(source);
                    continue;
                }
                refusedCompanions.put(key, refusal.get());
            }
            metrics.error(ErrorType.SCHEMA);
            warnOnce("variant:" + key, "VARIANT dual-write for %s is off; %s still lands as text: %s",
                    source.batchName(), source.batchName(), refusedCompanions.get(key));
        }
        return writable;
    }

    /** Empty when the companion is a live VARIANT column afterwards, else why not. */
    private Optional<String> tryAddCompanion(String companion) throws SQLException {
        Optional<LiveSchema.LiveColumn> live = schema().find(companion);
        String failure = "";
        if (live.isEmpty()) {
            try {
                table.addColumnIfNotExists(companion, "VARIANT");
            } catch (SQLException e) {
                if (CommitContention.isContention(e)) {
                    throw e;
                }
                failure = ": " + String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            }
            live = reload().find(companion);
            if (live.isPresent() && live.get().type().equals("VARIANT")) {
                metrics.schemaColumnAdded();
                LOG.infof("Added VARIANT companion column %s to %s", companion, table.displayName());
            }
        }
        if (live.isPresent() && live.get().type().equals("VARIANT")) {
            return Optional.empty();
        }
        return Optional.of(live.isEmpty() ? "ADD COLUMN " + companion + " VARIANT failed" + failure
                : companion + " exists as " + live.get().type() + " and DuckLake cannot ALTER a column to VARIANT");
    }

    private void warnOnce(String key, String format, Object... args) {
        if (warned.add(key)) {
            LOG.warnf(format, args);
        } else {
            LOG.debugf(format, args);
        }
    }
}
