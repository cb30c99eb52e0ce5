package dev.millpond.sinks.hoglake.schema;

import dev.millpond.config.HoglakeConfig;
import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.hoglake.catalog.CatalogFailure;
import dev.millpond.sinks.hoglake.catalog.CatalogReply;
import dev.millpond.sinks.hoglake.catalog.HoglakeCatalogClient;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.AddColumn;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.AlterOp;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnDef;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.PromoteColumn;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWriteException;
import dev.millpond.sinks.hoglake.parquet.HoglakeColumnType;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Brings the live table up to a batch's columns. New columns go in one alter (one DDL snapshot for the whole drift);
 * if the server refuses that alter, each column is added on its own so one bad column cannot keep the others out.
 * A live int or float under a batch long or double is promoted. A refusal degrades that one column (left out of the
 * file, logged, counted as {@code errors_total{type="schema"}}); a failure the next attempt may not meet (an
 * unreachable catalog, a concurrent DDL conflict) fails the flush instead, to be retried.
 */
public final class SchemaEvolution {

    private static final Logger LOG = Logger.getLogger(SchemaEvolution.class);

    private final HoglakeCatalogClient client;
    private final MillpondMetrics metrics;
    private final String catalog;
    private final String namespace;
    private final String table;
    private final Set<String> warned = new HashSet<>();

    /** Evolves the table HOGLAKE_CATALOG, HOGLAKE_NAMESPACE and HOGLAKE_TABLE name. */
    public SchemaEvolution(HoglakeCatalogClient client, MillpondMetrics metrics, HoglakeConfig config) {
        this.client = client;
        this.metrics = metrics;
        this.catalog = config.catalog();
        this.namespace = config.namespace();
        this.table = config.table();
    }

    /** The live table after adding and promoting what {@code columns} need. */
    public TableInfo evolve(TableInfo info, List<PayloadColumns.Sent> columns) {
        List<ColumnDef> added = new ArrayList<>();
        List<PromoteColumn> promoted = new ArrayList<>();
        for (PayloadColumns.Sent c : columns) {
            // A key the table spells in another case is that column, not a new one.
            Optional<ColumnInfo> live = LiveSpellings.column(info, c.name());
            if (live.isEmpty()) {
                added.add(ColumnDef.scalar(c.name(), c.type().wireName(), true));
            } else {
                promotion(live.get().type(), c.type())
                        .ifPresent(to -> promoted.add(new PromoteColumn(live.get().name(), to)));
            }
        }
        if (TableLayout.column(info, PayloadColumns.INSERTED_AT).isEmpty()) {
            // A table created by something else: every millpond row carries its flush's stamp.
            added.add(ColumnDef.scalar(PayloadColumns.INSERTED_AT, HoglakeColumnType.TIMESTAMPTZ.wireName(), true));
        }
        TableInfo current = info;
        if (!added.isEmpty()) {
            current = add(current, added);
        }
        for (PromoteColumn p : promoted) {
            current = promote(current, p);
        }
        return current;
    }

    /** int→long and float→double, the promotions a batch can ask for; none for anything else. */
    static Optional<String> promotion(String liveType, HoglakeColumnType batchType) {
        if (liveType.equals("int") && batchType == HoglakeColumnType.LONG) {
            return Optional.of("long");
        }
        if (liveType.equals("float") && batchType == HoglakeColumnType.DOUBLE) {
            return Optional.of("double");
        }
        return Optional.empty();
    }

    private TableInfo add(TableInfo info, List<ColumnDef> columns) {
        List<AlterOp> ops = columns.stream().<AlterOp>map(c -> new AddColumn(c, null)).toList();
        CatalogReply<TableInfo> all = client.alter(catalog, namespace, table, ops);
        if (all.ok()) {
            columns.forEach(c -> added(c.name()));
            return all.value();
        }
        failIfUnreachable(all.failure(), "adding " + columns.size() + " column(s)");
        if (columns.size() > 1) {
            LOG.warnf("Hoglake refused adding %d columns to %s.%s in one alter (%s); adding them one by one",
                    columns.size(), namespace, table, all.failure());
        }
        for (ColumnDef c : columns) {
            CatalogReply<TableInfo> one = columns.size() == 1 ? all
                    : client.alter(catalog, namespace, table, List.of(new AddColumn(c, null)));
            if (one.ok()) {
                added(c.name());
            } else if (one.failure().isColumnAlreadyExists()) {
                LOG.debugf("Column %s was added by another writer", c.name());
            } else {
                failIfUnreachable(one.failure(), "adding column " + c.name());
                refused("adding column " + c.name() + " (" + c.type() + ")", one.failure());
            }
        }
        return reread();
    }

    private TableInfo promote(TableInfo info, PromoteColumn p) {
        CatalogReply<TableInfo> reply = client.alter(catalog, namespace, table, List.of(p));
        if (reply.ok()) {
            metrics.schemaColumnWidened();
            LOG.infof("Promoted column %s of %s.%s to %s", p.name(), namespace, table, p.to());
            return reply.value();
        }
        failIfUnreachable(reply.failure(), "promoting column " + p.name());
        refused("promoting column " + p.name() + " to " + p.to(), reply.failure());
        return info;
    }

    private void added(String name) {
        metrics.schemaColumnAdded();
        LOG.infof("Added column %s to hoglake table %s.%s", name, namespace, table);
    }

    /** A refusal degrades one column; a catalog that did not answer fails the flush, to be retried. */
    private static void failIfUnreachable(CatalogFailure f, String what) {
        if (f.retryable()) {
            throw new HoglakeWriteException(what, f);
        }
    }

    private void refused(String what, CatalogFailure f) {
        metrics.error(ErrorType.SCHEMA);
        if (warned.add(what)) {
            LOG.warnf("Hoglake refused %s on %s.%s: %s; the column is left out of the write", what, namespace, table,
                    f);
        }
    }

    private TableInfo reread() {
        CatalogReply<TableInfo> r = client.table(catalog, namespace, table);
        if (!r.ok()) {
            throw new HoglakeWriteException("reading table " + namespace + "." + table, r.failure());
        }
        return r.value();
    }
}
