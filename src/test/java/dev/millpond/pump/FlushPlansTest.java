package dev.millpond.pump;

import dev.millpond.app.Pipeline;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import dev.millpond.testsupport.TestEnv;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reproducible flush boundaries on the real broker, through the real startup ({@link Pipeline}) with a sink that
 * records each flush's offset ranges. A run dies inside a write (before or after the "lake" accepted it), the next run
 * must cut its first flush at exactly the recorded ranges — with filtered records, tombstones and unparseable values
 * in them, a background producer adding records past the plan, and random flush sizes, intervals and consume batches
 * ({@code -Dplans.trials}, {@code -Dplans.seed}).
 */
@ServiceBacked
class FlushPlansTest {

    private final KafkaBroker kafka = Services.kafka();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @Test
    void theFirstFlushAfterACrashIsCutExactlyAtTheRecordedPlan() throws Exception {
        int trials = Integer.getInteger("plans.trials", 4);
        long seed = Long.getLong("plans.seed", 11L);
        for (int t = 0; t < trials; t++) {
            trial(seed + t);
        }
    }

    private void trial(long seed) throws Exception {
        Random random = new Random(seed * 0x9E3779B97F4A7C15L); // adjacent seeds start alike in java.util.Random
        String topic = Services.uniqueName("plans");
        int partitions = 1 + random.nextInt(4);
        kafka.createTopic(topic, partitions);
        Map<String, String> env = hoglakeEnv(topic, "FLUSH_INTERVAL_MS", Integer.toString(200 + random.nextInt(600)),
                "FLUSH_SIZE", Integer.toString(2_000 + random.nextInt(20_000)),
                "CONSUME_BATCH_SIZE", Integer.toString(10 + random.nextInt(200)));
        MillpondConfig config = ConfigLoader.load(env);
        Corpus corpus = new Corpus(kafka, topic, partitions, new Random(random.nextLong()));
        corpus.produce(50 + random.nextInt(250));

        RangeRecordingSink dying = new RangeRecordingSink(1 + random.nextInt(3), random.nextBoolean());
        AtomicBoolean producing = new AtomicBoolean(true);
        Thread producer = new Thread(() -> {
            while (producing.get()) {
                corpus.produce(1 + corpus.random.nextInt(20));
                sleep(50);
            }
        }, "plans-producer");
        producer.start();
        try (Pipeline pipeline = open(config, dying)) {
            Throwable died = runUntilDeath(pipeline);
            assertThat(died).as("seed %d: the run dies in its write", seed)
                    .isInstanceOf(RangeRecordingSink.SimulatedCrash.class);
        }
        List<OffsetRange> plan = dying.crashedOn;
        assertThat(recordedPlan(config.groupId(), topic)).as("seed %d: the plan in Kafka", seed)
                .isEqualTo(asPlan(plan));
        // Records past the plan, and on partitions outside it: every partition grows before the producer stops.
        Map<Integer, Long> atCrash = kafka.endOffsets(topic);
        Await.within(Duration.ofSeconds(60), "records on every partition after the crash")
                .pollInterval(Duration.ofMillis(50)).until(() -> {
                    Map<Integer, Long> now = kafka.endOffsets(topic);
                    return atCrash.keySet().stream().allMatch(p -> now.get(p) > atCrash.get(p));
                });
        producing.set(false);
        producer.join();

        RangeRecordingSink restarted = RangeRecordingSink.reliable();
        try (Pipeline pipeline = open(config, restarted)) {
            runUntil(pipeline, () -> everythingCommitted(config.groupId(), topic));
        }
        System.out.printf("[plans] seed=%d partitions=%d plan=%s flushes before=%d after=%d%n", seed, partitions,
                plan, dying.accepted.size(), restarted.accepted.size());
        assertThat(restarted.accepted.get(0)).as("seed %d: the first flush after the restart", seed)
                .isEqualTo(plan);
        assertThat(recordedPlan(config.groupId(), topic)).as("seed %d: no plan left", seed).isEmpty();

        // Every kept record exactly once, counting the replayed flush once: no range overlaps another.
        List<List<OffsetRange>> flushes = new ArrayList<>(dying.accepted);
        List<Long> rows = new ArrayList<>(dying.rows);
        if (!flushes.isEmpty() && flushes.get(flushes.size() - 1).equals(plan)) { // it landed before the crash
            flushes.remove(flushes.size() - 1);
            rows.remove(rows.size() - 1);
        }
        flushes.addAll(restarted.accepted);
        rows.addAll(restarted.rows);
        assertNoOverlap(seed, flushes);
        assertThat(rows.stream().mapToLong(Long::longValue).sum()).as("seed %d: rows written", seed)
                .isEqualTo(corpus.kept.get());
    }

    @Test
    void aPlanWhoseRecordsAreGoneIsDroppedWithAWarningAndFlushingGoesOn() throws Exception {
        String topic = Services.uniqueName("plans-gone");
        kafka.createTopic(topic, 2);
        MillpondConfig config = ConfigLoader.load(hoglakeEnv(topic, "FLUSH_INTERVAL_MS", "300"));
        Corpus corpus = new Corpus(kafka, topic, 2, new Random(5));
        corpus.produce(200);
        RangeRecordingSink dying = new RangeRecordingSink(1, true);
        try (Pipeline pipeline = open(config, dying)) {
            assertThat(runUntilDeath(pipeline)).isInstanceOf(RangeRecordingSink.SimulatedCrash.class);
        }
        OffsetRange lost = dying.crashedOn.get(0);
        kafka.deleteRecordsBefore(topic, lost.partition(), lost.first() + 1);

        RangeRecordingSink restarted = RangeRecordingSink.reliable();
        try (Pipeline pipeline = open(config, restarted)) {
            runUntil(pipeline, () -> everythingCommitted(config.groupId(), topic));
        }
        assertThat(restarted.accepted.get(0)).isNotEqualTo(dying.crashedOn);
        assertThat(restarted.accepted.stream().flatMap(List::stream).filter(r -> r.partition() == lost.partition())
                .mapToLong(OffsetRange::first).min().orElseThrow()).isGreaterThan(lost.first());
    }

    @Test
    void aStopWhileTheRecordedFlushIsIncompleteWritesNothingAndKeepsThePlan() throws Exception {
        String topic = Services.uniqueName("plans-stop");
        kafka.createTopic(topic, 1);
        MillpondConfig config = ConfigLoader.load(hoglakeEnv(topic, "FLUSH_INTERVAL_MS", "200",
                "KAFKA_CONSUMER_ISOLATION_LEVEL", "read_committed"));
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            values.add(("{\"id\":" + i + ",\"team_id\":1}").getBytes(StandardCharsets.UTF_8));
        }
        kafka.produce(topic, 0, values);
        Map<String, Object> producerConfig = new HashMap<>();
        producerConfig.put("bootstrap.servers", kafka.bootstrapServers());
        producerConfig.put("transactional.id", Services.uniqueName("plans-tx"));
        producerConfig.put("key.serializer", org.apache.kafka.common.serialization.ByteArraySerializer.class);
        producerConfig.put("value.serializer", org.apache.kafka.common.serialization.ByteArraySerializer.class);
        try (var open = new org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]>(producerConfig)) {
            // An open transaction: a read_committed consumer stops at offset 10 until it ends, so a plan reaching
            // into it cannot complete while the pod runs.
            open.initTransactions();
            open.beginTransaction();
            for (int i = 0; i < 5; i++) {
                open.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topic, 0, null,
                        "{\"id\":99}".getBytes(StandardCharsets.UTF_8)));
            }
            open.flush();
            FlushPlan plan = new FlushPlan(0, 0, 12, "f", 1);
            kafka.admin().alterConsumerGroupOffsets(config.groupId(), Map.of(new TopicPartition(topic, 0),
                    new OffsetAndMetadata(0, plan.metadata()))).all().get(30, java.util.concurrent.TimeUnit.SECONDS);

            RangeRecordingSink sink = RangeRecordingSink.reliable();
            try (Pipeline pipeline = open(config, sink)) {
                runUntil(pipeline, () -> registry.find("millpond.records.consumed").counters().stream()
                        .mapToDouble(io.micrometer.core.instrument.Counter::count).sum() >= 10);
            }
            assertThat(sink.accepted).as("no partial flush at the stop").isEmpty();
            assertThat(recordedPlan(config.groupId(), topic)).as("the plan is kept for the next start")
                    .containsExactly(new OffsetRange(topic, 0, 0, 12));
            open.abortTransaction();
        }
    }

    /**
     * An upgrade that met a crash inside the window: the version before topic ids recorded the plan ({@code v1}) and
     * named its flush by topic name alone. The rebuilt flush is named the same way, so the server answers it from the
     * receipt of the first send; every later flush carries the topic id.
     */
    @Test
    void aPlanRecordedBeforeTopicIdsIsReplayedWithoutTheTopicId() throws Exception {
        String topic = Services.uniqueName("plans-v1");
        kafka.createTopic(topic, 1);
        MillpondConfig config = ConfigLoader.load(hoglakeEnv(topic, "FLUSH_INTERVAL_MS", "200"));
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            values.add(("{\"id\":" + i + ",\"team_id\":1}").getBytes(StandardCharsets.UTF_8));
        }
        kafka.produce(topic, 0, values);
        FlushPlan plan = new FlushPlan(0, 0, 19, "f", 1);
        assertThat(plan.metadata()).startsWith("millpond-plan/v1 ");
        kafka.admin().alterConsumerGroupOffsets(config.groupId(), Map.of(new TopicPartition(topic, 0),
                new OffsetAndMetadata(0, plan.metadata()))).all().get(30, java.util.concurrent.TimeUnit.SECONDS);

        RangeRecordingSink sink = RangeRecordingSink.reliable();
        try (Pipeline pipeline = open(config, sink)) {
            runUntil(pipeline, () -> everythingCommitted(config.groupId(), topic));
        }
        String topicId = kafka.admin().describeTopics(List.of(topic)).allTopicNames()
                .get(30, java.util.concurrent.TimeUnit.SECONDS).get(topic).topicId().toString();
        assertThat(sink.accepted.get(0)).containsExactly(new OffsetRange(topic, 0, 0, 19));
        assertThat(sink.accepted.subList(1, sink.accepted.size())).isNotEmpty().allSatisfy(flush ->
                assertThat(flush).allSatisfy(r -> assertThat(r.topicId()).contains(topicId)));
    }

    @Test
    void duckLakeCommitsNoPlans() throws Exception {
        String topic = Services.uniqueName("plans-ducklake");
        kafka.createTopic(topic, 1);
        Map<String, String> env = hoglakeEnv(topic, "FLUSH_INTERVAL_MS", "200");
        env.keySet().removeIf(k -> k.startsWith("HOGLAKE_"));
        env.put("MILLPOND_DESTINATION", "ducklake");
        TestEnv.minimal().forEach(env::putIfAbsent); // the DuckLake variables the loader requires; the sink is fake
        MillpondConfig config = ConfigLoader.load(env);
        new Corpus(kafka, topic, 1, new Random(3)).produce(100);
        try (Pipeline pipeline = open(config, new RangeRecordingSink(1, true))) {
            assertThat(runUntilDeath(pipeline)).isInstanceOf(RangeRecordingSink.SimulatedCrash.class);
        }
        assertThat(kafka.committedOffsets(config.groupId(), topic)).as("no commit before the write").isEmpty();
    }

    // ---- helpers

    /** Events {@code {"id":n,"team_id":t}} (team 3 is filtered out), unparseable values and tombstones. */
    private static final class Corpus {
        final KafkaBroker kafka;
        final String topic;
        final int partitions;
        final Random random;
        final AtomicLong kept = new AtomicLong();
        long nextId;

        Corpus(KafkaBroker kafka, String topic, int partitions, Random random) {
            this.kafka = kafka;
            this.topic = topic;
            this.partitions = partitions;
            this.random = random;
        }

        synchronized void produce(int count) {
            int partition = random.nextInt(partitions);
            if (random.nextInt(8) == 0) {
                kafka.produceTombstones(topic, partition, 1 + random.nextInt(3));
            }
            List<byte[]> values = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int kind = random.nextInt(10);
                String json;
                if (kind == 0) {
                    json = "{\"id\":" + nextId++ + ", broken";
                } else {
                    int team = kind == 1 ? 3 : 1 + random.nextInt(2);
                    json = "{\"id\":" + nextId++ + ",\"team_id\":" + team + "}";
                    if (team != 3) {
                        kept.incrementAndGet();
                    }
                }
                values.add(json.getBytes(StandardCharsets.UTF_8));
            }
            kafka.produce(topic, partition, values);
        }
    }

    private Map<String, String> hoglakeEnv(String topic, String... extra) {
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
        env.put("KAFKA_TOPIC", topic);
        env.put("GROUP_ID", Services.uniqueName("plans-group"));
        env.put("REPLICA_COUNT", "1");
        env.put("POD_NAME", "millpond-0");
        env.put("FETCH_MAX_WAIT_MS", "100");
        env.put("MILLPOND_DESTINATION", "hoglake");
        env.put("HOGLAKE_URL", "http://127.0.0.1:9/unused");
        env.put("HOGLAKE_CATALOG", "millpond");
        env.put("HOGLAKE_NAMESPACE", "analytics");
        env.put("HOGLAKE_TABLE", "events");
        env.put("MILLPOND_FILTER_DROP_FIELD_NAME", "team_id");
        env.put("MILLPOND_FILTER_DROP_VALUES", "3");
        for (int i = 0; i < extra.length; i += 2) {
            env.put(extra[i], extra[i + 1]);
        }
        return env;
    }

    private Pipeline open(MillpondConfig config, RangeRecordingSink sink) throws Exception {
        MillpondMetrics metrics = new MillpondMetrics(registry, config.pipelineLabel(), config.brokerSource());
        return Pipeline.open(config, metrics, new PumpHealth(), (m, memory, budget) -> sink, seconds -> { });
    }

    /** The plan committed for the group, as ranges sorted by partition; empty when none is recorded. */
    private List<OffsetRange> recordedPlan(String groupId, String topic) {
        Map<TopicPartition, OffsetAndMetadata> all;
        try {
            all = kafka.admin().listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata()
                    .get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        Map<Integer, OffsetRange> plan = new TreeMap<>();
        all.forEach((tp, c) -> {
            if (tp.topic().equals(topic) && c != null) {
                FlushPlan.parse(tp.partition(), c.metadata()).ifPresent(p -> {
                    assertThat(c.offset()).as("the offset committed with a plan is its first").isEqualTo(p.first());
                    plan.put(p.partition(), new OffsetRange(topic, p.partition(), p.first(), p.last(), p.topicId()));
                });
            }
        });
        return List.copyOf(plan.values());
    }

    /** Every partition that has records is committed to its end. */
    private boolean everythingCommitted(String groupId, String topic) {
        Map<Integer, Long> committed = kafka.committedOffsets(groupId, topic);
        return kafka.endOffsets(topic).entrySet().stream()
                .allMatch(e -> e.getValue() == 0 || e.getValue().equals(committed.get(e.getKey())));
    }

    private static List<OffsetRange> asPlan(List<OffsetRange> ranges) {
        return ranges.stream().sorted(Comparator.comparingInt(OffsetRange::partition)).toList();
    }

    private static void assertNoOverlap(long seed, List<List<OffsetRange>> flushes) {
        Map<Integer, List<OffsetRange>> byPartition = new TreeMap<>();
        flushes.stream().flatMap(List::stream)
                .forEach(r -> byPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r));
        byPartition.forEach((p, ranges) -> {
            ranges.sort(Comparator.comparingLong(OffsetRange::first));
            for (int i = 1; i < ranges.size(); i++) {
                assertThat(ranges.get(i).first()).as("seed %d partition %d: %s", seed, p, ranges)
                        .isGreaterThan(ranges.get(i - 1).last());
            }
        });
    }

    /** Runs the pump until it throws (the simulated crash); returns what it threw. */
    private static Throwable runUntilDeath(Pipeline pipeline) throws Exception {
        return RunningPump.start(pipeline).failure(Duration.ofSeconds(90));
    }

    private static void runUntil(Pipeline pipeline, BooleanSupplier condition) throws Exception {
        RunningPump.runUntil(pipeline, condition, Duration.ofSeconds(90));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
