package dev.millpond.app;

import dev.millpond.config.ConfigException;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.convert.BatchUnifier;
import dev.millpond.convert.JsonToArrow;
import dev.millpond.kafka.KafkaClientGauges;
import dev.millpond.kafka.KafkaClients;
import dev.millpond.kafka.LagMonitor;
import dev.millpond.kafka.PartitionAssignment;
import dev.millpond.kafka.StartupOffsets;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.pump.Pump;
import dev.millpond.pump.PumpSettings;
import dev.millpond.pump.RetryPolicy;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.ducklake.DuckLakeSink;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.util.Optional;
import java.util.Properties;

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

    private volatile Pump pump;
    private volatile boolean stopping;
    private Thread thread;

    void onStart(@Observes StartupEvent event) {
        MillpondConfig config;
        try {
            config = ConfigLoader.fromSystemEnvironment();
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
        int exitCode = 0;
        Properties consumerProperties = consumerProperties(config);
        try (BufferAllocator allocator = new RootAllocator();
             Sink sink = new DuckLakeSink(DuckLakeSinkFactory.settings(config.ducklake(), extensionDirectory),
                     metrics, allocator.newChildAllocator("sink", 0, Long.MAX_VALUE));
             Admin admin = Admin.create(KafkaClients.adminProperties(config.kafka()));
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties,
                     new ByteArrayDeserializer(), new ByteArrayDeserializer());
             KafkaClientGauges clientGauges = new KafkaClientGauges(consumer::metrics, admin,
                     consumerProperties.getProperty("security.protocol"), metrics)
                     .start(config.statsIntervalMs())) {
            health.sinkReady();
            PartitionAssignment assignment = PartitionAssignment.discover(admin, config.topic(), config.replicaCount(),
                    config.ordinal());
            StartupOffsets.recoverAndSeed(consumer, admin, assignment,
                    config.autoOffsetReset(), metrics);
            consumer.assign(StartupOffsets.topicPartitions(assignment));
            health.partitionsAssigned();
            LOG.infof("Assigned partitions %s of %s (%d partitions, ordinal %d of %d), group.id=%s",
                    assignment.partitions(), config.topic(), assignment.partitionCount(), config.ordinal(),
                    config.replicaCount(), config.groupId());
            Pump p = new Pump(new PumpSettings(config.topic(), config.flushSizeBytes(), config.flushIntervalMs(),
                    config.consumeBatchSize()), consumer, new JsonToArrow(allocator), new BatchUnifier(allocator), sink,
                    metrics, health, new LagMonitor(admin, assignment, metrics), RetryPolicy.duckLakeWrites(),
                    Pump.Sleeper.REAL);
            pump = p;
            if (stopping) {
                p.requestStop();
            }
            try {
                p.run();
            } finally {
                p.discardPending();
            }
            LOG.info("Pump stopped");
        } catch (Throwable e) {
            LOG.error("Fatal error in main loop", e);
            exitCode = 1;
        }
        if (exitCode != 0) {
            Quarkus.asyncExit(exitCode);
        }
    }

    static Properties consumerProperties(MillpondConfig config) {
        return KafkaClients.consumerProperties(config.kafka(), config.consumeBatchSize());
    }

    void onStop(@Observes ShutdownEvent event) {
        stopping = true;
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
    }

    Optional<Pump> pump() {
        return Optional.ofNullable(pump);
    }
}
