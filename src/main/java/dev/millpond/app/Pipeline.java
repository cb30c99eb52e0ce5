package dev.millpond.app;

import dev.millpond.config.FilterValues;
import dev.millpond.config.MillpondConfig;
import dev.millpond.config.TestHooks;
import dev.millpond.config.WriterProcessConfig;
import dev.millpond.convert.BatchUnifier;
import dev.millpond.convert.JsonToArrow;
import dev.millpond.kafka.KafkaClientGauges;
import dev.millpond.kafka.KafkaClients;
import dev.millpond.kafka.LagMonitor;
import dev.millpond.kafka.OffsetJumps;
import dev.millpond.kafka.OutOfRangeResets;
import dev.millpond.kafka.PartitionAssignment;
import dev.millpond.kafka.PartitionRefresh;
import dev.millpond.kafka.ResumeDecision;
import dev.millpond.kafka.StartPositions;
import dev.millpond.memory.ContainerMemory;
import dev.millpond.memory.MemoryBudget;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.pump.FlushPlans;
import dev.millpond.pump.ColumnBudget;
import dev.millpond.pump.Pump;
import dev.millpond.pump.Sleeper;
import dev.millpond.pump.WriteRetry;
import dev.millpond.pump.PumpSettings;
import dev.millpond.pump.RecordedPlan;
import dev.millpond.sinks.RecordedOffsets;
import dev.millpond.sinks.Sink;
import dev.millpond.stages.RecordStages;
import org.apache.arrow.memory.AllocationListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.rounding.SegmentRoundingPolicy;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Startup steps 6–9 of the original, in its order: the sink (DuckLake attached), then Kafka (partitions discovered,
 * assigned, start positions decided from Kafka and the lake, gauges seeded), then the pump. Owns every resource it
 * opened and closes them in reverse order: consumer, admin, sink, Arrow memory.
 */
public final class Pipeline implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Pipeline.class);

    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Pump pump;
    private final PartitionAssignment assignment;
    private final List<ResumeDecision> resumeDecisions;

    private Pipeline(MillpondConfig config, MillpondMetrics metrics, PumpHealth health, SinkFactory sinkFactory,
                     UnaryOperator<Sink> sinkDecorator, Sleeper sleeper,
                     Optional<Supplier<FilterValues>> includeSet, BooleanSupplier stopRequested,
                     OptionalLong memoryLimit, TestHooks hooks) throws Exception {
        try {
            hooks.warnings(config).forEach(LOG::warn);
            MemoryBudget budget = MemoryBudget.plan(ContainerMemory.detect(memoryLimit),
                    Runtime.getRuntime().maxMemory(), config.flushSizeBytes(),
                    Runtime.getRuntime().availableProcessors(), config.overlapWrites(),
                    config.variantCompanions());
            LOG.info(budget.describe(config.explicitDuckDbMemoryLimit()));
            // Arrow's default rounds every buffer up to a power of two (a 0.8 MB text column takes 1 MiB): ~25 % more
            // memory for the pending rows. 4 KiB segments waste at most a page per buffer.
            BufferAllocator allocator = keep(new RootAllocator(AllocationListener.NOOP, Long.MAX_VALUE,
                    new SegmentRoundingPolicy(4096)));
            BufferAllocator sinkMemory = keep(allocator.newChildAllocator("sink", 0, Long.MAX_VALUE));
            Sink sink = keep(sinkDecorator.apply(new SinkOpening(sinkFactory, health, sleeper, stopRequested)
                    .open(metrics, sinkMemory, budget)));
            health.sinkReady();
            KafkaDiscovery.Connected kafka = new KafkaDiscovery(config, health, sleeper, stopRequested).connect();
            Admin admin = keep(kafka.admin());
            assignment = kafka.assignment();
            Properties consumerProperties = KafkaClients.consumerProperties(config.kafka(), config.consumeBatchSize());
            // A fetch response lives in the heap until polled; bound it to the heap's share unless configured.
            consumerProperties.putIfAbsent("fetch.max.bytes", Long.toString(budget.kafkaFetchBytes()));
            // The reset policy is applied by StartPositions and the pump, never silently by the client, so every jump
            // over offsets the pipeline never read is logged and counted (OutOfRangeResets).
            consumerProperties.setProperty("auto.offset.reset", OutOfRangeResets.CONSUMER_POLICY);
            KafkaConsumer<byte[], byte[]> consumer = keep(new KafkaConsumer<>(consumerProperties,
                    new ByteArrayDeserializer(), new ByteArrayDeserializer()));
            keep(new KafkaClientGauges(consumer::metrics, admin, consumerProperties.getProperty("security.protocol"),
                    metrics).start(config.statsIntervalMs()));
            // Read before the next step re-commits anything, which would erase the recorded plan.
            boolean plansFlushes = sinkFactory.plansFlushes() && hooks.flushPlans();
            RecordedPlan recordedPlan = plansFlushes ? RecordedPlan.read(consumer, admin, assignment)
                    : RecordedPlan.none();
            IsolationLevel isolation = config.kafka().readCommitted() ? IsolationLevel.READ_COMMITTED
                    : IsolationLevel.READ_UNCOMMITTED;
            consumer.assign(assignment.topicPartitions());
            Optional<RecordedOffsets> lakeOffsets = sink.recordedOffsets(config.topic(), assignment.topicId());
            if (lakeOffsets.isEmpty()) {
                LOG.info("The sink records no offsets: resuming from Kafka's committed offsets only (at-least-once)");
            }
            OffsetJumps jumps = new OffsetJumps(metrics);
            resumeDecisions = StartPositions.apply(consumer, admin, assignment,
                    lakeOffsets.map(RecordedOffsets::next).orElse(Map.of()),
                    lakeOffsets.flatMap(RecordedOffsets::recreatedFrom), config.autoOffsetReset(), isolation, metrics,
                    jumps);
            health.partitionsAssigned();
            LOG.infof("Assigned partitions %s of %s (%d partitions, ordinal %d of %d), group.id=%s",
                    assignment.partitions(), config.topic(), assignment.partitionCount(), config.ordinal(),
                    config.replicaCount(), config.groupId());
            LagMonitor lag = new LagMonitor(admin, assignment, metrics, isolation,
                    hooks.lagRefresh().orElse(LagMonitor.DEFAULT_INTERVAL));
            PartitionRefresh partitions = new PartitionRefresh(admin, assignment, config.replicaCount(),
                    config.ordinal(), config.partitionRefreshInterval(), lag, metrics, jumps);
            health.writeDeadline(sinkFactory.writeRetry().longestWrite(hooks.writeAllowance()
                    .orElse(WriteRetry.LADDER_ALLOWANCE)));
            metrics.writeInFlight(health::secondsWriteInFlight);
            BufferAllocator pumpMemory = keep(allocator.newChildAllocator("pump", 0, Long.MAX_VALUE));
            pump = new Pump(new PumpSettings(config.topic(), config.flushSizeBytes(), config.flushIntervalMs(),
                    config.consumeBatchSize(), config.testPauseAfterLakeCommitMs(),
                    config.landing().rejectMaxValueBytes(), budget.arrowPendingBytes(), config.overlapWrites(),
                    budget.rejectsPendingBytes()),
                    consumer,
                    new JsonToArrow(pumpMemory, config.logPayloadPreview()), new BatchUnifier(pumpMemory),
                    includeSet.map(set -> new RecordStages(config.recordHandling(), set, metrics, pumpMemory))
                            .orElseGet(() -> new RecordStages(config.recordHandling(), metrics, pumpMemory)),
                    sink, metrics, health, lag, partitions,
                    new OutOfRangeResets(admin, assignment, config.autoOffsetReset(), jumps), sinkFactory.writeRetry(),
                    sleeper, new ColumnBudget(config.landing().maxTableColumns(),
                            config.landing().maxNewColumnsPerFlush(), pumpMemory, sink::becomesColumn));
            if (plansFlushes && lakeOffsets.isEmpty()) {
                // Hoglake names each publication by its offset ranges: a flush rebuilt at the same boundary after a
                // crash is recognised instead of published twice.
                pump.useFlushPlans(FlushPlans.on(consumer, config.topic(), recordedPlan, config.flushIntervalMs(),
                        metrics, sleeper));
            }
            keep(pump::discardPending);
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /**
     * Connects everything; the caller runs {@link #pump()} and closes the pipeline afterwards.
     *
     * @param process       the process's settings: where the DuckDB extensions are, the memory limit, the test hooks
     * @param includeSet    the keep filter's allowlist when a dynamic source publishes it; empty means the static
     *                      {@code MILLPOND_FILTER_VALUES}
     * @param stopRequested ends the wait for a sink that is unreachable at startup ({@link SinkOpening})
     */
    public static Pipeline open(MillpondConfig config, WriterProcessConfig process, MillpondMetrics metrics,
                                PumpHealth health, Optional<Supplier<FilterValues>> includeSet,
                                BooleanSupplier stopRequested) throws Exception {
        return new Pipeline(config, metrics, health,
                SinkFactory.forDestination(config, process.duckDbExtensionDirectory().toString()),
                UnaryOperator.identity(), Sleeper.REAL, includeSet, stopRequested, process.memoryLimit(),
                process.testHooks());
    }

    // The openings for tests below run with the container's own limit and the JVM's test hooks, read when they open.

    public static Pipeline open(MillpondConfig config, MillpondMetrics metrics, PumpHealth health,
                                String extensionDirectory, Optional<Supplier<FilterValues>> includeSet) throws Exception {
        return new Pipeline(config, metrics, health, SinkFactory.forDestination(config, extensionDirectory),
                UnaryOperator.identity(), Sleeper.REAL, includeSet, () -> false, OptionalLong.empty(),
                TestHooks.fromSystemProperties());
    }

    /** For tests that inject faults at the sink edge, skip real backoff sleeps or drive the keep filter. */
    public static Pipeline open(MillpondConfig config, MillpondMetrics metrics, PumpHealth health,
                                String extensionDirectory, UnaryOperator<Sink> sinkDecorator, Sleeper sleeper,
                                Optional<Supplier<FilterValues>> includeSet) throws Exception {
        return new Pipeline(config, metrics, health, SinkFactory.forDestination(config, extensionDirectory), sinkDecorator,
                sleeper, includeSet, () -> false, OptionalLong.empty(), TestHooks.fromSystemProperties());
    }

    /** For tests that inject faults at the sink edge or skip real backoff sleeps. */
    public static Pipeline open(MillpondConfig config, MillpondMetrics metrics, PumpHealth health,
                                String extensionDirectory, UnaryOperator<Sink> sinkDecorator,
                                Sleeper sleeper) throws Exception {
        return new Pipeline(config, metrics, health, SinkFactory.forDestination(config, extensionDirectory), sinkDecorator,
                sleeper, Optional.empty(), () -> false, OptionalLong.empty(), TestHooks.fromSystemProperties());
    }

    /** For tests of the loop with a sink of their own in place of the destination's. */
    public static Pipeline open(MillpondConfig config, MillpondMetrics metrics, PumpHealth health,
                                SinkFactory.Opener sink, Sleeper sleeper) throws Exception {
        return new Pipeline(config, metrics, health, SinkFactory.forDestination(config, "").openingWith(sink),
                UnaryOperator.identity(), sleeper, Optional.empty(), () -> false, OptionalLong.empty(),
                TestHooks.fromSystemProperties());
    }

    public Pump pump() {
        return pump;
    }

    /** Where each assigned partition resumed and why, as logged at startup. */
    public List<ResumeDecision> resumeDecisions() {
        return resumeDecisions;
    }

    public PartitionAssignment assignment() {
        return assignment;
    }

    /** Resources close in reverse order of opening. */
    private <T extends AutoCloseable> T keep(T resource) {
        resources.add(0, resource);
        return resource;
    }

    @Override
    public void close() {
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                LOG.warnf("Closing %s failed: %s", r, e.toString());
            }
        }
        resources.clear();
    }
}
