package dev.millpond.app;

import dev.millpond.config.MillpondConfig;
import dev.millpond.memory.MemoryBudget;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.StartupOutage;
import dev.millpond.sinks.ducklake.DuckDbResources;
import dev.millpond.sinks.ducklake.DuckLakeSink;
import dev.millpond.sinks.ducklake.DuckLakeStartupFailures;
import dev.millpond.sinks.hoglake.HoglakeSink;
import org.apache.arrow.memory.BufferAllocator;

import java.util.Optional;

/** Opens the sink a pipeline writes to: startup step 6. Returns only once the sink is ready to write. */
@FunctionalInterface
public interface SinkFactory {

    Sink open(MillpondConfig config, MillpondMetrics metrics, BufferAllocator memory, MemoryBudget budget)
            throws Exception;

    /**
     * What {@link #open} could not reach, when its failure is an outage worth waiting out at startup; empty when
     * waiting cannot help, which fails startup at once.
     */
    default Optional<StartupOutage> outage(MillpondConfig config, Throwable failure) {
        return Optional.empty();
    }

    /** The sink MILLPOND_DESTINATION selects. */
    static SinkFactory forDestination(String extensionDirectory) {
        return new SinkFactory() {
            @Override
            public Sink open(MillpondConfig config, MillpondMetrics metrics, BufferAllocator memory,
                             MemoryBudget budget) throws Exception {
                return switch (config.destination()) {
                    case DUCKLAKE -> new DuckLakeSink(DuckLakeSinkFactory.settings(config.ducklake(),
                            config.groupId(), extensionDirectory, config.landing(), budget.duckdbMemoryLimit(),
                            Optional.of(new DuckDbResources(budget.duckdbThreads(), budget.rowGroupRows()))),
                            metrics, memory);
                    case HOGLAKE -> HoglakeSink.open(config.hoglake(), config.recordHandling().sortBy(), metrics,
                            memory);
                };
            }

            @Override
            public Optional<StartupOutage> outage(MillpondConfig config, Throwable failure) {
                return switch (config.destination()) {
                    case DUCKLAKE -> DuckLakeStartupFailures.outage(failure);
                    case HOGLAKE -> HoglakeSink.startupOutage(failure);
                };
            }
        };
    }
}
