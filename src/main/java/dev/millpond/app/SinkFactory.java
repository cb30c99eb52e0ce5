package dev.millpond.app;

import dev.millpond.config.MillpondConfig;
import dev.millpond.memory.MemoryBudget;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.pump.WriteRetry;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.StartupOutage;
import org.apache.arrow.memory.BufferAllocator;

import java.util.Optional;

/**
 * One destination's sink and the facts the startup and the pump need about it: how to open it, which opening
 * failures are outages worth waiting for, what to name when it is unreachable, and how its writes are retried.
 * The destination is chosen here, once ({@link #forDestination}); nothing else branches on it.
 */
public interface SinkFactory {

    /** Opens the sink: startup step 6. Returns only once the sink is ready to write. */
    Sink open(MillpondMetrics metrics, BufferAllocator memory, MemoryBudget budget) throws Exception;

    /**
     * What {@link #open} could not reach, when its failure is an outage worth waiting out at startup; empty when
     * waiting cannot help, which fails startup at once.
     */
    Optional<StartupOutage> outage(Throwable failure);

    /**
     * What startup throws for an opening failure that is not an outage: the failure itself, or the one line to log
     * ({@link SinkStartupException}) where the destination's errors span lines.
     */
    Exception refusal(Exception failure);

    /** What could not be reached, by name and address, for a log line; never a credential. */
    String unreachable(StartupOutage outage);

    /** How a failed write is retried: the destination's ladder, then outage riding within the budget. */
    WriteRetry writeRetry();

    /**
     * Whether a flush must be rebuilt at the same offset boundary after a crash (a flush plan recorded in Kafka before
     * each write): true where the destination names a publication by its offset ranges and recognises only a flush
     * cut where the plan says; false where offsets are recorded in the lake's own transaction.
     */
    boolean plansFlushes();

    /** The factory MILLPOND_DESTINATION selects. */
    static SinkFactory forDestination(MillpondConfig config, String extensionDirectory) {
        return switch (config.destination()) {
            case DUCKLAKE -> new DuckLakeSinkFactory(config, extensionDirectory);
            case HOGLAKE -> new HoglakeSinkFactory(config);
        };
    }

    /** Opens a sink of the caller's own. */
    @FunctionalInterface
    interface Opener {
        Sink open(MillpondMetrics metrics, BufferAllocator memory, MemoryBudget budget) throws Exception;
    }

    /** This destination's facts with a sink of the caller's own in place of the real one: for tests of the loop. */
    default SinkFactory openingWith(Opener opener) {
        SinkFactory facts = this;
        return new SinkFactory() {
            @Override
            public Sink open(MillpondMetrics metrics, BufferAllocator memory, MemoryBudget budget) throws Exception {
                return opener.open(metrics, memory, budget);
            }

            @Override
            public Optional<StartupOutage> outage(Throwable failure) {
                return facts.outage(failure);
            }

            @Override
            public Exception refusal(Exception failure) {
                return facts.refusal(failure);
            }

            @Override
            public String unreachable(StartupOutage outage) {
                return facts.unreachable(outage);
            }


            @Override
            public WriteRetry writeRetry() {
                return facts.writeRetry();
            }

            @Override
            public boolean plansFlushes() {
                return facts.plansFlushes();
            }
        };
    }
}
