package dev.millpond.app;

import dev.millpond.config.DuckLakeConfig;
import dev.millpond.config.LandingLimits;
import dev.millpond.config.MillpondConfig;
import dev.millpond.ducklake.CatalogLocation;
import dev.millpond.ducklake.IncompatibleCatalogException;
import dev.millpond.ducklake.S3Setting;
import dev.millpond.memory.MemoryBudget;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.pump.WriteRetry;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.StartupOutage;
import dev.millpond.sinks.ducklake.DuckDbResources;
import dev.millpond.sinks.ducklake.DuckLakeSink;
import dev.millpond.sinks.ducklake.DuckLakeSinkSettings;
import dev.millpond.sinks.ducklake.DuckLakeStartupFailures;
import org.apache.arrow.memory.BufferAllocator;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** The DuckLake destination: the validated DuckLake variable group translated into the sink's settings. */
final class DuckLakeSinkFactory implements SinkFactory {

    private final MillpondConfig config;
    private final String extensionDirectory;

    DuckLakeSinkFactory(MillpondConfig config, String extensionDirectory) {
        this.config = config;
        this.extensionDirectory = extensionDirectory;
    }

    @Override
    public Sink open(MillpondMetrics metrics, BufferAllocator memory, MemoryBudget budget) throws Exception {
        return new DuckLakeSink(settings(config.ducklake(), config.groupId(), extensionDirectory, config.landing(),
                budget.duckdbMemoryLimit(),
                Optional.of(new DuckDbResources(budget.duckdbThreads(), budget.rowGroupRows(),
                        budget.insertSliceBytes()))), metrics, memory);
    }

    @Override
    public Optional<StartupOutage> outage(Throwable failure) {
        return DuckLakeStartupFailures.outage(failure);
    }

    /** DuckDB's and libpq's messages span lines; an incompatible catalog already says its one line. */
    @Override
    public Exception refusal(Exception failure) {
        return failure instanceof SQLException && !(failure instanceof IncompatibleCatalogException)
                ? new SinkStartupException("Cannot open the DuckLake sink: " + SinkOpening.oneLine(failure.getMessage()),
                failure) : failure;
    }

    @Override
    public String unreachable(StartupOutage outage) {
        DuckLakeConfig c = config.ducklake();
        return outage == StartupOutage.CATALOG
                ? "the DuckLake catalog (Postgres at " + c.catalog().host() + ":" + c.catalog().port() + ", database "
                        + c.catalog().database() + ")"
                : "the object store (" + c.s3().endpoint().orElse("S3") + ", data path " + c.dataPath() + ")";
    }


    @Override
    public WriteRetry writeRetry() {
        return WriteRetry.duckLakeWrites(config.sinkOutageBudget());
    }

    /**
     * @param landing           the width bound and the rejects table
     * @param budgetMemoryLimit DuckDB's share of the container's memory; an explicit DUCKDB_MEMORY_LIMIT wins
     * @param resources         DuckDB's threads and the parquet row group size from the memory budget
     */
    private static DuckLakeSinkSettings settings(DuckLakeConfig c, String groupId, String extensionDirectory,
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

    /** Offsets go into the lake in the same transaction as the rows: no plan needed. */
    @Override
    public boolean plansFlushes() {
        return false;
    }
}
