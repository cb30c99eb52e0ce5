package dev.millpond.sinks.hoglake.schema;

import dev.millpond.sinks.RejectsBatch;
import dev.millpond.sinks.hoglake.catalog.CatalogReply;
import dev.millpond.sinks.hoglake.catalog.HoglakeCatalogClient;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnDef;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWriteException;
import dev.millpond.sinks.hoglake.parquet.HoglakeColumnType;
import org.jboss.logging.Logger;

import java.util.List;

/**
 * The {@code _millpond_rejects} table beside the data table, in the same namespace: one row per Kafka record the
 * pipeline could not land. Its columns are DuckLake's {@code _millpond_rejects}, name for name and in the same order,
 * so one query reads the rejects of either destination. It is found, or created on the first flush that has rejects
 * (another pod creating it first is fine); its files are registered by the flush's own commit.
 */
public final class RejectsTable {

    private static final Logger LOG = Logger.getLogger(RejectsTable.class);

    public static final String NAME = "_millpond_rejects";
    public static final String TABLE_NAME = "table_name";
    public static final String TOPIC = RejectsBatch.TOPIC;
    public static final String PARTITION = RejectsBatch.PARTITION;
    public static final String OFFSET = RejectsBatch.OFFSET;
    public static final String TIMESTAMP = RejectsBatch.TIMESTAMP;
    public static final String REASON = RejectsBatch.REASON;
    public static final String ERROR = RejectsBatch.ERROR;
    public static final String VALUE = RejectsBatch.VALUE;
    public static final String VALUE_LENGTH = RejectsBatch.VALUE_LENGTH;
    public static final String REJECTED_AT = "rejected_at";
    public static final String VALUE_TRUNCATED = RejectsBatch.VALUE_TRUNCATED;

    static final List<ColumnDef> COLUMNS = List.of(
            column(TABLE_NAME, HoglakeColumnType.STRING),
            column(TOPIC, HoglakeColumnType.STRING),
            column(PARTITION, HoglakeColumnType.INT),
            column(OFFSET, HoglakeColumnType.LONG),
            column(TIMESTAMP, HoglakeColumnType.TIMESTAMPTZ),
            column(REASON, HoglakeColumnType.STRING),
            column(ERROR, HoglakeColumnType.STRING),
            column(VALUE, HoglakeColumnType.BINARY),
            column(VALUE_LENGTH, HoglakeColumnType.LONG),
            column(REJECTED_AT, HoglakeColumnType.TIMESTAMPTZ),
            column(VALUE_TRUNCATED, HoglakeColumnType.BOOLEAN));

    private final HoglakeCatalogClient client;
    private final String catalog;
    private final String namespace;

    public RejectsTable(HoglakeCatalogClient client, String catalog, String namespace) {
        this.client = client;
        this.catalog = catalog;
        this.namespace = namespace;
    }

    public String qualified() {
        return namespace + "." + NAME;
    }

    /** The live rejects table, created (with its namespace) when missing. */
    public TableInfo resolve() {
        CatalogReply<TableInfo> read = client.table(catalog, namespace, NAME);
        if (read.ok()) {
            return read.value();
        }
        if (!read.failure().isNotFound()) {
            throw new HoglakeWriteException("reading table " + qualified(), read.failure());
        }
        Namespaces.ensure(client, catalog, namespace);
        CatalogReply<TableInfo> created = client.createTable(catalog, namespace, NAME, COLUMNS);
        if (created.ok()) {
            LOG.infof("Created hoglake table %s.%s for the records that cannot land as rows", catalog, qualified());
            return created.value();
        }
        if (!created.failure().isAlreadyExists()) {
            throw new HoglakeWriteException("creating table " + qualified(), created.failure());
        }
        CatalogReply<TableInfo> again = client.table(catalog, namespace, NAME);
        if (!again.ok()) {
            throw new HoglakeWriteException("reading table " + qualified() + " another writer created",
                    again.failure());
        }
        return again.value();
    }

    private static ColumnDef column(String name, HoglakeColumnType type) {
        return ColumnDef.scalar(name, type.wireName(), true);
    }
}
