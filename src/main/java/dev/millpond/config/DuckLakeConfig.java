package dev.millpond.config;

import java.util.Optional;

/**
 * The DuckLake variable group (read only when MILLPOND_DESTINATION is ducklake): the lake access the maintenance
 * tools share, plus what only the writer reads.
 *
 * @param table          DUCKLAKE_TABLE, a safe identifier
 * @param schema         DUCKLAKE_SCHEMA, a safe identifier, default {@code main}
 * @param lake           DUCKLAKE_DATA_PATH, DUCKLAKE_CONNECTION (required here), DUCKLAKE_RDS_*, DUCKDB_MEMORY_LIMIT,
 *                       DUCKDB_S3_* and MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION; see {@link LakeAccess}
 * @param maxRetryCount  DUCKLAKE_MAX_RETRY_COUNT, default 100, positive
 * @param partitionBy    DUCKLAKE_PARTITION_BY, empty or blank means none; matches {@code ^[a-zA-Z0-9_(),\s]+$}
 * @param variantColumns MILLPOND_VARIANT_COLUMNS, the VARIANT dual-write sources. Parsed with this group because
 *                       only the DuckLake destination accepts it
 * @param lakeOffsets    MILLPOND_LAKE_OFFSETS, default true: record each flush's Kafka offsets in the lake commit
 *                       and resume from them (exactly-once); false for tables other writers share in ways the
 *                       offsets table cannot see
 */
public record DuckLakeConfig(
        String table,
        String schema,
        LakeAccess lake,
        int maxRetryCount,
        Optional<String> partitionBy,
        VariantColumns variantColumns,
        boolean lakeOffsets) implements DestinationConfig {

    @Override
    public Destination destination() {
        return Destination.DUCKLAKE;
    }

    // The lake-access values, read through the group as before.

    public String dataPath() {
        return lake.dataPath();
    }

    public String connection() {
        return lake.connection();
    }

    public CatalogConnection catalog() {
        return lake.catalog();
    }

    public Optional<String> memoryLimit() {
        return lake.memoryLimit();
    }

    public S3Settings s3() {
        return lake.s3();
    }

    public boolean automaticMigration() {
        return lake.automaticMigration();
    }
}
