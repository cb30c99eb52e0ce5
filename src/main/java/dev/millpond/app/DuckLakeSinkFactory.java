package dev.millpond.app;

import dev.millpond.config.DuckLakeConfig;
import dev.millpond.config.LandingLimits;
import dev.millpond.sinks.ducklake.CatalogLocation;
import dev.millpond.sinks.ducklake.DuckDbResources;
import dev.millpond.sinks.ducklake.DuckLakeSinkSettings;
import dev.millpond.sinks.ducklake.DuckLakeSinkSettings.S3Setting;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Translates the validated DuckLake variable group into the sink's settings. */
public final class DuckLakeSinkFactory {

    private DuckLakeSinkFactory() {
    }

    /**
     * @param landing           the width bound and the rejects table
     * @param budgetMemoryLimit DuckDB's share of the container's memory; an explicit DUCKDB_MEMORY_LIMIT wins
     * @param resources         DuckDB's threads and the parquet row group size from the memory budget
     */
    static DuckLakeSinkSettings settings(DuckLakeConfig c, String groupId, String extensionDirectory,
                                         LandingLimits landing, Optional<String> budgetMemoryLimit,
                                         Optional<DuckDbResources> resources) {
        List<S3Setting> sets = S3Setting.from(c.s3());
        CatalogLocation catalog = CatalogLocation.Postgres.of(c.catalog());
        return new DuckLakeSinkSettings(c.connection(), catalog, c.dataPath(), c.schema(), c.table(), sets,
                c.maxRetryCount(), c.memoryLimit().or(() -> budgetMemoryLimit), c.partitionBy(),
                c.variantColumns().sources(), Path.of(extensionDirectory),
                c.lakeOffsets() ? Optional.of(groupId) : Optional.empty(), landing, resources,
                c.automaticMigration());
    }
}
