package dev.millpond.app;

import dev.millpond.config.DuckLakeConfig;
import dev.millpond.config.LandingLimits;
import dev.millpond.config.S3Settings;
import dev.millpond.sinks.ducklake.CatalogLocation;
import dev.millpond.sinks.ducklake.DuckDbResources;
import dev.millpond.sinks.ducklake.DuckLakeSinkSettings;
import dev.millpond.sinks.ducklake.DuckLakeSinkSettings.S3Setting;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Translates the validated DuckLake variable group into the sink's settings. */
public final class DuckLakeSinkFactory {

    /** Where the image bakes the DuckDB extensions; overridden for dev and tests by MILLPOND_DUCKDB_EXTENSION_DIR. */
    static final String DEFAULT_EXTENSION_DIR = "/opt/millpond/duckdb-extensions";

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
        List<S3Setting> sets = s3Settings(c.s3());
        CatalogLocation catalog = CatalogLocation.Postgres.of(c.catalog());
        return new DuckLakeSinkSettings(c.connection(), catalog, c.dataPath(), c.schema(), c.table(), sets,
                c.maxRetryCount(), c.memoryLimit().or(() -> budgetMemoryLimit), c.partitionBy(),
                c.variantColumns().sources(), Path.of(extensionDirectory),
                c.lakeOffsets() ? Optional.of(groupId) : Optional.empty(), landing, resources,
                c.automaticMigration());
    }

    /** DUCKDB_S3_* as DuckDB settings; the maintenance tools attach the lake with the same list. */
    public static List<S3Setting> s3Settings(S3Settings s3) {
        List<S3Setting> sets = new ArrayList<>();
        // The original's order, each only when configured.
        s3.endpoint().ifPresent(v -> sets.add(new S3Setting("s3_endpoint", v)));
        sets.add(new S3Setting("s3_access_key_id", s3.accessKeyId()));
        sets.add(new S3Setting("s3_secret_access_key", s3.secretAccessKey().reveal()));
        s3.useSsl().ifPresent(v -> sets.add(new S3Setting("s3_use_ssl", v)));
        s3.urlStyle().ifPresent(v -> sets.add(new S3Setting("s3_url_style", v)));
        s3.region().ifPresent(v -> sets.add(new S3Setting("s3_region", v)));
        return sets;
    }
}
