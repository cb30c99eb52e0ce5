package dev.millpond.sinks.ducklake;

import dev.millpond.config.LandingLimits;
import dev.millpond.ducklake.CatalogLocation;
import dev.millpond.ducklake.LakeAttachment;
import dev.millpond.ducklake.S3Setting;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Everything the DuckLake sink needs to connect and write, already validated by the config package.
 *
 * @param s3Settings     DuckDB's legacy {@code s3_*} settings in the original's order, only those that were configured
 * @param variantSources MILLPOND_VARIANT_COLUMNS: source columns that get a {@code <source>_variant} companion
 * @param lakeOffsetsGroupId the Kafka group.id whose offsets each flush records in {@code _millpond_offsets}, in the
 *                       same transaction as its rows; empty when MILLPOND_LAKE_OFFSETS=false
 * @param landing        the width bound and the rejects table (MILLPOND_MAX_TABLE_COLUMNS, MILLPOND_REJECTS…)
 * @param resources      DuckDB's threads and the table's parquet row group size from the memory budget; empty leaves
 *                       DuckDB's and DuckLake's defaults
 * @param automaticMigration MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION: the ATTACH may migrate an older catalog in place
 */
public record DuckLakeSinkSettings(
        String connection,
        CatalogLocation catalog,
        String dataPath,
        String schema,
        String table,
        List<S3Setting> s3Settings,
        int maxRetryCount,
        Optional<String> memoryLimit,
        Optional<String> partitionBy,
        List<String> variantSources,
        Path extensionDirectory,
        Optional<String> lakeOffsetsGroupId,
        LandingLimits landing,
        Optional<DuckDbResources> resources,
        boolean automaticMigration) {

    /** The width bound and the rejects table at their defaults, DuckDB's own resource defaults. */
    public DuckLakeSinkSettings(String connection, CatalogLocation catalog, String dataPath, String schema, String table,
                                List<S3Setting> s3Settings, int maxRetryCount, Optional<String> memoryLimit,
                                Optional<String> partitionBy, List<String> variantSources, Path extensionDirectory,
                                Optional<String> lakeOffsetsGroupId) {
        this(connection, catalog, dataPath, schema, table, s3Settings, maxRetryCount, memoryLimit, partitionBy,
                variantSources, extensionDirectory, lakeOffsetsGroupId, LandingLimits.DEFAULTS);
    }

    /** As the full form, with DuckDB's and DuckLake's own resource defaults. */
    public DuckLakeSinkSettings(String connection, CatalogLocation catalog, String dataPath, String schema, String table,
                                List<S3Setting> s3Settings, int maxRetryCount, Optional<String> memoryLimit,
                                Optional<String> partitionBy, List<String> variantSources, Path extensionDirectory,
                                Optional<String> lakeOffsetsGroupId, LandingLimits landing) {
        this(connection, catalog, dataPath, schema, table, s3Settings, maxRetryCount, memoryLimit, partitionBy,
                variantSources, extensionDirectory, lakeOffsetsGroupId, landing, Optional.empty());
    }

    /** As the full form, never migrating the catalog. */
    public DuckLakeSinkSettings(String connection, CatalogLocation catalog, String dataPath, String schema, String table,
                                List<S3Setting> s3Settings, int maxRetryCount, Optional<String> memoryLimit,
                                Optional<String> partitionBy, List<String> variantSources, Path extensionDirectory,
                                Optional<String> lakeOffsetsGroupId, LandingLimits landing,
                                Optional<DuckDbResources> resources) {
        this(connection, catalog, dataPath, schema, table, s3Settings, maxRetryCount, memoryLimit, partitionBy,
                variantSources, extensionDirectory, lakeOffsetsGroupId, landing, resources, false);
    }

    public DuckLakeSinkSettings {
        s3Settings = List.copyOf(s3Settings);
        variantSources = List.copyOf(variantSources);
    }

    /** How the sink attaches the lake: the same attachment the maintenance tools open. */
    public LakeAttachment attachment() {
        return new LakeAttachment(connection, catalog, dataPath, s3Settings, maxRetryCount, memoryLimit,
                extensionDirectory, automaticMigration);
    }
}
