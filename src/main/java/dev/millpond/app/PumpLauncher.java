package dev.millpond.app;

import dev.millpond.config.ConfigException;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.includevalues.IncludeValuesSource;
import dev.millpond.includevalues.KeepFilterSnapshots;
import dev.millpond.memory.ContainerMemory;
import dev.millpond.observability.LogExport;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.OtlpLogExport;
import dev.millpond.observability.PumpHealth;
import dev.millpond.pump.Pump;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;


/**
 * Starts the pump on its own thread once Quarkus (and so the HTTP probes and /metrics) is up, and stops it on SIGTERM.
 *
 * <p>The pump drives the Kafka client directly instead of through a SmallRye Reactive Messaging channel: it needs
 * static {@code assign()} with no group membership, synchronous per-partition commits after the lake write, stale
 * offset recovery before the first poll, and a consume size that shrinks as the buffer fills — none of which a
 * messaging channel's acknowledgement strategies express.
 */
@ApplicationScoped
public class PumpLauncher {

    private static final Logger LOG = Logger.getLogger(PumpLauncher.class);

    @Inject
    MeterRegistry registry;

    @Inject
    PumpHealth health;

    @ConfigProperty(name = "millpond.duckdb.extension-dir", defaultValue = DuckLakeSinkFactory.DEFAULT_EXTENSION_DIR)
    String extensionDirectory;

    /** Off only in {@code @QuarkusTest}s of the HTTP surface, which run without a broker or a lake. */
    @ConfigProperty(name = "millpond.pump.autostart", defaultValue = "true")
    boolean autostart;

    private volatile Pump pump;
    private volatile IncludeValuesSource includeValues;
    private volatile boolean stopping;
    private Thread thread;
    private volatile LogExport logExport;

    void onStart(@Observes StartupEvent event) {
        logExport = OtlpLogExport.installIfConfigured(System.getenv()); // first, so config errors are exported too
        if (!autostart) {
            LOG.info("millpond.pump.autostart=false: the pump is not started");
            return;
        }
        MillpondConfig config;
        try {
            config = ConfigLoader.fromSystemEnvironment();
            ContainerMemory.detect(System.getenv()); // MILLPOND_MEMORY_LIMIT fails here, in one line, if malformed
        } catch (ConfigException e) {
            LOG.error(e.getMessage());
            Quarkus.asyncExit(1);
            return;
        }
        TerminationSignals.install();
        thread = new Thread(() -> runPump(config), "millpond-pump");
        thread.start();
    }

    private void runPump(MillpondConfig config) {
        MillpondMetrics metrics = new MillpondMetrics(registry, config.pipelineLabel(), config.brokerSource());
        try (IncludeValuesSource source = IncludeValuesSource.create(config.includeValues(), metrics);
             Pipeline pipeline = Pipeline.open(config, metrics, health, extensionDirectory,
                     source.effectiveSet().map(KeepFilterSnapshots::new))) {
            // Startup step 10, after the sink and Kafka; authoritative mode blocks here until the first poll.
            includeValues = source;
            if (!stopping) {
                source.start();
            }
            pump = pipeline.pump();
            if (stopping) {
                pump.requestStop();
            }
            pump.run();
            LOG.info("Pump stopped");
        } catch (Throwable e) {
            LOG.error("Fatal error in main loop", e);
            Quarkus.asyncExit(1);
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        stopping = true;
        IncludeValuesSource source = includeValues;
        if (source != null) {
            source.close(); // shutdown step 1: no set change during the final flush
        }
        Pump p = pump;
        if (p != null) {
            LOG.info("Shutdown requested: finishing the current step, flushing and committing");
            p.requestStop();
        }
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        LogExport export = logExport;
        if (export != null) {
            export.close(); // last, so the shutdown lines above are in the final batch
        }
    }
}
