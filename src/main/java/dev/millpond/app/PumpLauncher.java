package dev.millpond.app;

import dev.millpond.config.ConfigException;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.config.ProcessEnvironment;
import dev.millpond.config.WriterProcessConfig;
import dev.millpond.ducklake.IncompatibleCatalogException;
import dev.millpond.includevalues.IncludeValuesSource;
import dev.millpond.includevalues.IncludeValuesStartupException;
import dev.millpond.kafka.TopicRecreatedException;
import dev.millpond.observability.LogExport;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.OtlpLogExport;
import dev.millpond.observability.PumpHealth;
import dev.millpond.pump.Pump;
import dev.millpond.sinks.hoglake.HoglakeStartupException;
import dev.millpond.sinks.hoglake.ObjectStoreProbeException;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;


/**
 * Starts the pump on its own thread once Quarkus (and so the HTTP probes and /metrics) is up, and stops it on SIGTERM.
 *
 * <p>The pump drives the Kafka client directly instead of through a SmallRye Reactive Messaging channel: it flushes on
 * time even when no record arrives, seeks to start positions computed from the lake after the sink has connected,
 * keeps Arrow memory and the DuckDB connection on one thread, and shrinks each consume call as the buffer fills
 * (docs/architecture.md, "Libraries: the design card, accounted for").
 */
@ApplicationScoped
public class PumpLauncher {

    private static final Logger LOG = Logger.getLogger(PumpLauncher.class);

    @Inject
    MeterRegistry registry;

    @Inject
    PumpHealth health;

    /** Read first, whether or not the pump starts; null until then, and when it failed (the process is exiting). */
    private volatile WriterProcessConfig process;
    private volatile Pump pump;
    private volatile IncludeValuesSource includeValues;
    private volatile boolean stopping;
    private Thread thread;
    private volatile LogExport logExport;

    void onStart(@Observes StartupEvent event) {
        try {
            // First, so config errors are exported too; secret files are read by then (the log filter asked first).
            logExport = OtlpLogExport.installIfConfigured(ProcessEnvironment.bestEffort());
        } catch (ConfigException e) {
            LOG.fatal(e.getMessage()); // the export's own settings are wrong: one line, on the console only
            Quarkus.asyncExit(1);
            return;
        }
        WriterProcessConfig settings;
        MillpondConfig config;
        try {
            settings = WriterProcessConfig.fromProcess();
            if (!settings.pumpAutostart()) {
                LOG.info("MILLPOND_PUMP_AUTOSTART=false: the pump is not started");
                return;
            }
            config = ConfigLoader.fromSystemEnvironment();
        } catch (ConfigException e) {
            // FATAL so that it shows at every LOG_LEVEL, as the original's uncaught exception does.
            LOG.fatal(e.getMessage());
            Quarkus.asyncExit(1);
            return;
        }
        process = settings;
        TerminationSignals.install();
        thread = new Thread(() -> runPump(config, settings), "millpond-pump");
        thread.start();
    }

    private void runPump(MillpondConfig config, WriterProcessConfig settings) {
        MillpondMetrics metrics = new MillpondMetrics(registry, config.pipelineLabel(), config.brokerSource());
        try (IncludeValuesSource source = IncludeValuesSource.create(config.includeValues(), metrics);
             Pipeline pipeline = Pipeline.open(config, settings, metrics, health, source.effectiveSet(),
                     () -> stopping)) {
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
        } catch (SinkOpening.Abandoned e) {
            LOG.info(e.getMessage()); // the shutdown that asked for it sets the exit code
        } catch (IncompatibleCatalogException | HoglakeStartupException | ObjectStoreProbeException
                 | SinkStartupException | IncludeValuesStartupException | KafkaStartupException
                 | TopicRecreatedException e) {
            // One line: the cause (DuckLake's refusal, the catalog, S3 or Kafka error, the allowlist's last poll, the
            // two topic ids) is in it.
            LOG.fatal(e.getMessage());
            Quarkus.asyncExit(1);
        } catch (Throwable e) {
            LOG.fatal("Fatal error in main loop", e);
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
            // How long a stop waits for the pump to flush and commit (MILLPOND_STOP_DEADLINE_S): inside the
            // StatefulSet's 180 s grace period, with room for the rest of the shutdown (the log export gets up to
            // 10 s more), so Kubernetes never has to SIGKILL the pod.
            Duration deadline = process.stopDeadline();
            try {
                t.join(deadline.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (t.isAlive()) {
                // A step that ignores the stop request (a write hanging on an unresponsive dependency): what landed
                // is committed, what is in flight is not and will be consumed again on restart.
                LOG.errorf("The pump did not stop within %ds; exiting without finishing its current step%s",
                        deadline.toSeconds(), stuckStacks(t));
                closeLogExport();
                Runtime.getRuntime().halt(0); // a stop request ends in exit 0, as a failed shutdown flush does
            }
        }
        closeLogExport();
    }

    /**
     * Where the pump thread and the writer thread stand, so the on-call sees which dependency a stuck stop waited
     * for without having to catch the pod in time for a thread dump.
     */
    private static String stuckStacks(Thread pumpThread) {
        StringBuilder out = new StringBuilder();
        Thread.getAllStackTraces().forEach((thread, frames) -> {
            if (thread == pumpThread || thread.getName().equals("millpond-writer")) {
                out.append("\n  thread ").append(thread.getName()).append(" (").append(thread.getState()).append(')');
                for (int i = 0; i < Math.min(frames.length, 25); i++) {
                    out.append("\n    at ").append(frames[i]);
                }
            }
        });
        return out.toString();
    }

    private void closeLogExport() {
        LogExport export = logExport;
        if (export != null) {
            export.close(); // last, so the shutdown lines above are in the final batch
        }
    }
}
