package dev.millpond.sinks.ducklake;

import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The parquet codec of the writer's table: zstd instead of DuckLake's snappy. Measured through the packaged app at the
 * pod's limits (1,000,000 PostHog-shaped events, docs/performance.md, "The parquet codec"): files 43 % smaller (180
 * against 317 MB) for the same CPU per record; the writer's extra compression work is paid back by the SHA-256 that
 * DuckDB's S3 client computes over every byte it uploads (8.7 % of the process with snappy), and by the upload itself.
 * lz4_raw saved no bytes, no compression tripled them and cost more CPU.
 *
 * <p>Set as {@link TableRowGroupSize} is: on the writer's own table only, once, when neither the table, its schema nor
 * the lake sets a codec (an operator's choice at any scope stands; DuckLake's maintenance rewrites the table's files
 * with it too). Readers take both codecs; files written before keep theirs. A failure (another pod setting it at the
 * same moment) costs only bytes, so it is logged, not raised.
 */
final class TableParquetCodec {

    private static final Logger LOG = Logger.getLogger(TableParquetCodec.class);
    static final String OPTION = "parquet_compression";
    static final String CODEC = "zstd";

    private final Connection connection;
    private final String schema;
    private final String table;
    private boolean checked;

    TableParquetCodec(Connection connection, String schema, String table) {
        this.connection = connection;
        this.schema = schema;
        this.table = table;
    }

    /** Once per sink, after the table exists. */
    void ensure() {
        if (checked) {
            return;
        }
        checked = true;
        try {
            TableOptions.Scoped scoped = TableOptions.read(connection, OPTION, schema, table);
            if (scoped.own().isPresent() || scoped.global().isPresent()) {
                return;
            }
            TableOptions.setOnTable(connection, OPTION, CODEC, schema, table);
            LOG.infof("DuckLake option %s set to %s for the table %s.%s (files ~40 %% smaller than snappy's for the"
                    + " same CPU)", OPTION, CODEC, schema, table);
        } catch (SQLException e) {
            LOG.warnf("Could not set the DuckLake option %s=%s on %s.%s: %s", OPTION, CODEC, schema, table,
                    String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }
}
