package dev.millpond.app;

import dev.millpond.config.HoglakeConfig;
import dev.millpond.config.MillpondConfig;
import dev.millpond.memory.MemoryBudget;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.pump.WriteRetry;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.StartupOutage;
import dev.millpond.sinks.hoglake.HoglakeSink;
import org.apache.arrow.memory.BufferAllocator;

import java.util.Optional;

/** The hoglake destination: the catalog service's control plane plus the object store the writer uploads to. */
final class HoglakeSinkFactory implements SinkFactory {

    private final MillpondConfig config;

    HoglakeSinkFactory(MillpondConfig config) {
        this.config = config;
    }

    @Override
    public Sink open(MillpondMetrics metrics, BufferAllocator memory, MemoryBudget budget) {
        return HoglakeSink.open(config.hoglake(), config.recordHandling().sortBy(), config.landing().rejects(),
                metrics, memory);
    }

    @Override
    public Optional<StartupOutage> outage(Throwable failure) {
        return HoglakeSink.startupOutage(failure);
    }

    /** The hoglake sink's startup failures are already one line each. */
    @Override
    public Exception refusal(Exception failure) {
        return failure;
    }

    @Override
    public String unreachable(StartupOutage outage) {
        HoglakeConfig c = config.hoglake();
        return outage == StartupOutage.CATALOG
                ? "the hoglake control plane (" + c.url() + ")"
                : "the object store (" + c.s3().endpoint().orElse("S3") + ")";
    }


    @Override
    public WriteRetry writeRetry() {
        return WriteRetry.hoglakeWrites(config.hoglake().maxRetryCount(), config.sinkOutageBudget());
    }

    /** Hoglake names each publication by its offset ranges: a flush rebuilt at the same boundary is recognised. */
    @Override
    public boolean plansFlushes() {
        return true;
    }
}
