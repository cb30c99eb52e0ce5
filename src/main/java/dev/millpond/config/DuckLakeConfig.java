package dev.millpond.config;

import java.util.Optional;

/**
 * The DuckLake variable group (read only when MILLPOND_DESTINATION is ducklake).
 *
 * @param table          DUCKLAKE_TABLE, a safe identifier
 * @param schema         DUCKLAKE_SCHEMA, a safe identifier, default {@code main}
 * @param dataPath       DUCKLAKE_DATA_PATH
 * @param connection     DUCKLAKE_CONNECTION, {@code :memory:} (k8s) or a plain path, passed to the DuckDB connect call
 * @param catalog        DUCKLAKE_RDS_* (host, port, database, user, password, TLS)
 * @param maxRetryCount  DUCKLAKE_MAX_RETRY_COUNT, default 100, positive
 * @param partitionBy    DUCKLAKE_PARTITION_BY, empty or blank means none; matches {@code ^[a-zA-Z0-9_(),\s]+$}
 * @param memoryLimit    DUCKDB_MEMORY_LIMIT, empty means unset. Not validated (the original does not);
 *                       the sink must quote it as a SQL literal
 * @param s3             DUCKDB_S3_*
 * @param variantColumns MILLPOND_VARIANT_COLUMNS, the VARIANT dual-write sources. Parsed with this group because
 *                       only the DuckLake destination accepts it
 * @param lakeOffsets    MILLPOND_LAKE_OFFSETS, default true: record each flush's Kafka offsets in the lake commit
 *                       and resume from them (exactly-once); false for tables other writers share in ways the
 *                       offsets table cannot see
 * @param automaticMigration MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION, default false: attach an older catalog format with
 *                       DuckLake's AUTOMATIC_MIGRATION, migrating it in place (one way); false refuses it at startup
 */
public record DuckLakeConfig(
        String table,
        String schema,
        String dataPath,
        String connection,
        CatalogConnection catalog,
        int maxRetryCount,
        Optional<String> partitionBy,
        Optional<String> memoryLimit,
        S3Settings s3,
        VariantColumns variantColumns,
        boolean lakeOffsets,
        boolean automaticMigration) implements DestinationConfig {

    @Override
    public Destination destination() {
        return Destination.DUCKLAKE;
    }
}
