package dev.millpond.pump;

import dev.millpond.app.Pipeline;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.Sink;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.DuckDbSql;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.MillpondEnvironment;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The loop on the real stack (KRaft broker, Postgres catalog, S3 server) in this JVM. Faults are injected only at
 * the sink edge, by a decorator around the real DuckLake sink; the backoff sleeps are recorded instead of slept.
 */
@ServiceBacked
class PumpTest {

    private final KafkaBroker kafka = Services.kafka();
    private final DuckLakeStack lake = Services.newDuckLake();
    private final String topic = Services.uniqueName("pump");
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final List<Double> sleeps = Collections.synchronizedList(new ArrayList<>());
    private final PumpHealth health = new PumpHealth();

    @Test
    void aWriteThatFailsTwiceIsRetriedWithBackoffAndCommitsOnce() throws Exception {
        kafka.createTopic(topic, 2);
        produce(0, 0, 300);
        produce(1, 300, 200);
        FlakySink[] flaky = new FlakySink[1];
        MillpondConfig config = config(Map.of("FLUSH_INTERVAL_MS", "500"));
        try (Pipeline pipeline = open(config, sink -> flaky[0] = new FlakySink(sink, 2, "Transaction conflict"))) {
            runUntil(pipeline, () -> metric("millpond_records_written_total") == 500);
        }
        assertThat(rows()).isEqualTo(500);
        assertThat(flaky[0].attemptNumbers).containsExactly(1, 2, 3);
        assertThat(metric("millpond_errors_total", "type", "ducklake_commit_contention")).isEqualTo(2);
        assertThat(sleeps).hasSize(2);
        assertThat(sleeps.get(0)).isBetween(1.0, 1.25);
        assertThat(sleeps.get(1)).isBetween(2.0, 2.5);
        assertThat(kafka.committedOffsets(config.groupId(), topic)).isEqualTo(Map.of(0, 300L, 1, 200L));
        assertThat(metric("millpond_batches_flushed_total", "trigger", "time")).isEqualTo(1);
        assertThat(metric("millpond_last_committed_offset", "partition", "0")).isEqualTo(300);
    }

    @Test
    void aWriteThatNeverSucceedsStopsThePumpWithoutCommitting() throws Exception {
        kafka.createTopic(topic, 1);
        produce(0, 0, 100);
        MillpondConfig config = config(Map.of("FLUSH_INTERVAL_MS", "300"));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (Pipeline pipeline = open(config, sink -> new FlakySink(sink, Integer.MAX_VALUE, "S3 is down"))) {
            try {
                pipeline.pump().run();
            } catch (PumpFailure e) {
                failure.set(e);
            }
        }
        assertThat(failure.get()).isInstanceOf(PumpFailure.class).hasMessageContaining("3 attempts");
        assertThat(metric("millpond_errors_total", "type", "write_retry")).isEqualTo(3);
        assertThat(sleeps).hasSize(2);
        assertThat(kafka.committedOffsets(config.groupId(), topic)).isEmpty();
        assertThat(metric("millpond_records_written_total")).isZero();
    }

    @Test
    void offsetsOfSkippedRecordsAndTombstonesAdvanceWithNothingToWrite() throws Exception {
        kafka.createTopic(topic, 1);
        kafka.produce(topic, 0, List.of("nope".getBytes(StandardCharsets.UTF_8), "[1]".getBytes(StandardCharsets.UTF_8),
                "{}".getBytes(StandardCharsets.UTF_8)));
        kafka.produceTombstones(topic, 0, 2);
        MillpondConfig config = config(Map.of("FLUSH_INTERVAL_MS", "300"));
        try (Pipeline pipeline = open(config, sink -> sink)) {
            runUntil(pipeline, () -> Map.of(0, 5L).equals(kafka.committedOffsets(config.groupId(), topic)));
        }
        assertThat(metric("millpond_records_consumed_total", "partition", "0")).isEqualTo(5);
        assertThat(metric("millpond_records_skipped_total", "reason", "json_parse")).isEqualTo(3);
        assertThat(metric("millpond_records_written_total")).isZero();
        // The three unparseable values (and the keyless object) are kept in the rejects table by one flush of no rows.
        assertThat(metric("millpond_records_rejected_total", "reason", "json_parse")).isEqualTo(3);
        assertThat(metric("millpond_batches_flushed_total", "trigger", "time")).isEqualTo(1);
        try (Connection c = lake.openQueryConnection()) {
            assertThat(DuckDbSql.queryLong(c, "SELECT count(*) FROM lake.main._millpond_rejects WHERE reason = "
                    + "'json_parse' AND kafka_partition = 0 AND kafka_offset IN (0, 1, 2)")).isEqualTo(3);
        }
    }

    /**
     * A keep filter that admits nothing: no row is ever written, only the commit-only path commits, and it moves the
     * committed-offset gauge and the lag like a flush does, so the pod does not show its startup lag forever.
     */
    @Test
    void aFullyFilteredPodsLagReachesZero() throws Exception {
        kafka.createTopic(topic, 2);
        produce(0, 0, 300);
        produce(1, 300, 200);
        MillpondConfig config = config(Map.of("FLUSH_INTERVAL_MS", "300", "MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id",
                "MILLPOND_FILTER_VALUES", "999"));
        System.setProperty("millpond.test.lag-refresh-ms", "200");
        try (Pipeline pipeline = open(config, sink -> sink)) {
            assertThat(metric("millpond_consumer_lag", "partition", "0")).as("seeded at startup").isEqualTo(300);
            assertThat(metric("millpond_consumer_lag", "partition", "1")).as("seeded at startup").isEqualTo(200);
            runUntil(pipeline, () -> metric("millpond_consumer_lag", "partition", "0") == 0
                    && metric("millpond_consumer_lag", "partition", "1") == 0);
        } finally {
            System.clearProperty("millpond.test.lag-refresh-ms");
        }
        assertThat(kafka.committedOffsets(config.groupId(), topic)).isEqualTo(Map.of(0, 300L, 1, 200L));
        assertThat(metric("millpond_last_committed_offset", "partition", "0")).isEqualTo(300);
        assertThat(metric("millpond_last_committed_offset", "partition", "1")).isEqualTo(200);
        assertThat(metric("millpond_records_written_total")).isZero();
        assertThat(metricOrEmpty("millpond_batches_flushed_total")).isEmpty();
    }

    @Test
    void withRejectsOffSkippedRecordsAreOnlyCountedAndNothingIsFlushed() throws Exception {
        kafka.createTopic(topic, 1);
        kafka.produce(topic, 0, List.of("nope".getBytes(StandardCharsets.UTF_8), "[1]".getBytes(StandardCharsets.UTF_8)));
        MillpondConfig config = config(Map.of("FLUSH_INTERVAL_MS", "300", "MILLPOND_REJECTS", "false"));
        try (Pipeline pipeline = open(config, sink -> sink)) {
            runUntil(pipeline, () -> Map.of(0, 2L).equals(kafka.committedOffsets(config.groupId(), topic)));
        }
        assertThat(metric("millpond_records_skipped_total", "reason", "json_parse")).isEqualTo(2);
        assertThat(metricOrEmpty("millpond_batches_flushed_total")).isEmpty();
        assertThat(metricOrEmpty("millpond_records_rejected_total")).isEmpty();
    }

    @Test
    void stoppingFlushesWhatIsPendingAndCommitsIt() throws Exception {
        kafka.createTopic(topic, 1);
        produce(0, 0, 250);
        MillpondConfig config = config(Map.of("FLUSH_INTERVAL_MS", "600000"));
        try (Pipeline pipeline = open(config, sink -> sink)) {
            runUntil(pipeline, () -> metric("millpond_records_consumed_total", "partition", "0") == 250
                    && metric("millpond_pending_bytes") > 0);
        }
        assertThat(rows()).isEqualTo(250);
        assertThat(kafka.committedOffsets(config.groupId(), topic)).isEqualTo(Map.of(0, 250L));
        assertThat(metric("millpond_batches_flushed_total", "trigger", "time")).isEqualTo(1);
        assertThat(metric("millpond_pending_bytes")).isZero();
    }

    @Test
    void theSizeTriggerFlushesBeforeTheInterval() throws Exception {
        kafka.createTopic(topic, 1);
        produce(0, 0, 2_000);
        MillpondConfig config = config(Map.of("FLUSH_INTERVAL_MS", "600000", "FLUSH_SIZE", "200000",
                "CONSUME_BATCH_SIZE", "100"));
        try (Pipeline pipeline = open(config, sink -> sink)) {
            runUntil(pipeline, () -> metric("millpond_batches_flushed_total", "trigger", "size") >= 2);
        }
        assertThat(metric("millpond_flush_size_bytes_count")).isGreaterThanOrEqualTo(2);
        assertThat(metric("millpond_records_written_total")).isEqualTo(rows());
    }

    /**
     * Overlapped writes: while flush N is held in the sink (on the writer thread), the pump consumes flush N+1 and
     * keeps polling (liveness fresh) but commits nothing; once N lands, its offsets and then N+1's are committed,
     * each row once.
     */
    @Test
    void theNextFlushIsConsumedWhileAWriteIsInFlightAndOffsetsAreCommittedOnlyAfterItLanded() throws Exception {
        kafka.createTopic(topic, 1);
        produce(0, 0, 100);
        MillpondConfig config = config(Map.of("FLUSH_INTERVAL_MS", "300"));
        GatedSink[] gated = new GatedSink[1];
        try (Pipeline pipeline = open(config, sink -> gated[0] = new GatedSink(sink, 0))) {
            RunningPump pump = RunningPump.start(pipeline);
            gated[0].awaitHeld();
            produce(0, 100, 150);
            pump.await(() -> metric("millpond_records_consumed_total", "partition", "0") == 250);
            // N+1's interval (300 ms) passes and the pump waits for N, polling the paused consumer every 200 ms:
            // a poll lands well after that. Without those polls the last one would stay where the wait began.
            long consumedAt = System.nanoTime();
            pump.await(() -> (System.nanoTime() - consumedAt) / 1e9 - health.secondsSinceLastPoll() > 1.5);
            assertThat(kafka.committedOffsets(config.groupId(), topic)).as("N has not landed").isEmpty();
            assertThat(gated[0].writerThreads).containsOnly("millpond-writer");

            gated[0].release();
            pump.await(() -> Map.of(0, 250L).equals(kafka.committedOffsets(config.groupId(), topic)));
            pump.stop();
        }
        assertThat(rows()).isEqualTo(250);
        assertThat(metric("millpond_records_written_total")).isEqualTo(250);
        assertThat(metric("millpond_batches_flushed_total", "trigger", "time")).isGreaterThanOrEqualTo(2);
    }

    /** MILLPOND_OVERLAP_WRITES=false: the write runs on the pump thread, which consumes nothing until it landed. */
    @Test
    void withOverlapOffNothingIsConsumedWhileAFlushIsWritten() throws Exception {
        kafka.createTopic(topic, 1);
        produce(0, 0, 100);
        MillpondConfig config = config(Map.of("FLUSH_INTERVAL_MS", "300", "MILLPOND_OVERLAP_WRITES", "false"));
        GatedSink[] gated = new GatedSink[1];
        try (Pipeline pipeline = open(config, sink -> gated[0] = new GatedSink(sink, 0))) {
            RunningPump pump = RunningPump.start(pipeline);
            gated[0].awaitHeld();
            double consumed = metric("millpond_records_consumed_total", "partition", "0");
            produce(0, 100, 150);
            // No waiting to see nothing happen: the write runs on the pump thread, the thread that consumes, and that
            // thread is still held inside it, so nothing can have been consumed since the hold.
            assertThat(gated[0].writerThreads).containsOnly("pump-under-test");
            assertThat(pump.thread().getStackTrace()).as("the pump thread, held in the write")
                    .anyMatch(frame -> frame.getClassName().equals(GatedSink.class.getName())
                            && frame.getMethodName().equals("write"));
            assertThat(metric("millpond_records_consumed_total", "partition", "0")).isEqualTo(consumed);

            gated[0].release();
            pump.await(() -> metric("millpond_records_consumed_total", "partition", "0") == 250);
            pump.await(() -> Map.of(0, 250L).equals(kafka.committedOffsets(config.groupId(), topic)));
            pump.stop();
        }
        assertThat(rows()).isEqualTo(250);
    }

    /** A flush that fails for good commits nothing, and the flush consumed behind it is discarded uncommitted. */
    @Test
    void aFailedWriteCommitsNeitherItselfNorTheFlushConsumedBehindIt() throws Exception {
        kafka.createTopic(topic, 1);
        produce(0, 0, 100);
        MillpondConfig config = config(Map.of("FLUSH_INTERVAL_MS", "300"));
        GatedSink[] gated = new GatedSink[1];
        Throwable failure;
        try (Pipeline pipeline = open(config, sink -> gated[0] = new GatedSink(
                new FlakySink(sink, Integer.MAX_VALUE, "S3 is down"), 0))) {
            RunningPump pump = RunningPump.start(pipeline);
            gated[0].awaitHeld();
            produce(0, 100, 150);
            pump.await(() -> metric("millpond_records_consumed_total", "partition", "0") == 250
                    && metric("millpond_pending_bytes") > 0);
            gated[0].release();
            failure = pump.failure();
        }
        assertThat(failure).isInstanceOf(PumpFailure.class).hasMessageContaining("3 attempts");
        assertThat(kafka.committedOffsets(config.groupId(), topic)).isEmpty();
        assertThat(metric("millpond_records_written_total")).isZero();
        assertThat(metricOrEmpty("millpond_batches_flushed_total")).isEmpty();
    }

    /** A stop while flush N is written: N lands and is committed, then the shutdown flush writes N+1 and commits. */
    @Test
    void aStopWhileAWriteIsInFlightLandsItThenFlushesWhatWasConsumedBehindIt() throws Exception {
        kafka.createTopic(topic, 1);
        produce(0, 0, 100);
        MillpondConfig config = config(Map.of("FLUSH_INTERVAL_MS", "300"));
        GatedSink[] gated = new GatedSink[1];
        try (Pipeline pipeline = open(config, sink -> gated[0] = new GatedSink(sink, 0))) {
            RunningPump pump = RunningPump.start(pipeline);
            gated[0].awaitHeld();
            produce(0, 100, 150);
            pump.await(() -> metric("millpond_records_consumed_total", "partition", "0") == 250
                    && metric("millpond_pending_bytes") > 0);
            pipeline.pump().requestStop();
            // Whether the stop finds the pump in its loop or already waiting (N+1's flush waits for N), it ends up
            // waiting for the write in flight; while that write is held, nothing may be committed.
            pump.await(() -> waitsForTheWriteInFlight(pump.thread()));
            assertThat(kafka.committedOffsets(config.groupId(), topic)).as("N is still being written").isEmpty();
            gated[0].release();
            assertThat(pump.failure()).isNull();
        }
        assertThat(rows()).isEqualTo(250);
        assertThat(kafka.committedOffsets(config.groupId(), topic)).isEqualTo(Map.of(0, 250L));
        assertThat(metric("millpond_batches_flushed_total", "trigger", "time")).isGreaterThanOrEqualTo(2);
    }

    /**
     * Freshness through the loop, with the writes held in the sink: while flush N is held, the age of its oldest
     * record is reported (not that of the younger records consumed behind it), and a partition with nothing pending
     * reads 0; once N lands, N's newest record is the last landed and the oldest record of N+1 (held in turn) is the
     * one reported; once everything landed, 0.
     */
    @Test
    void freshnessIsTheAgeOfTheOldestRecordNotLandedAndZeroOnceEverythingLanded() throws Exception {
        kafka.createTopic(topic, 2);
        long hourAgo = System.currentTimeMillis() - 3_600_000;
        produceStamped(0, 0, hourAgo, hourAgo + 1_000, hourAgo + 2_000);
        MillpondConfig config = config(Map.of("FLUSH_INTERVAL_MS", "300"));
        GatedSink[] gates = new GatedSink[2];
        try (Pipeline pipeline = open(config, sink -> gates[1] = new GatedSink(gates[0] = new GatedSink(sink, 0), 1))) {
            assertThat(metricOrEmpty("millpond_freshness_seconds", "partition", "1")).as("from the take-up")
                    .hasValue(0);
            RunningPump pump = RunningPump.start(pipeline);
            gates[0].awaitHeld();
            long tenMinutesAgo = System.currentTimeMillis() - 600_000;
            produceStamped(0, 3, tenMinutesAgo, tenMinutesAgo + 1_000);
            pump.await(() -> metric("millpond_records_consumed_total", "partition", "0") == 5);
            assertAge("0", hourAgo);
            assertThat(metric("millpond_freshness_seconds", "partition", "1")).isZero();
            assertThat(metricOrEmpty("millpond_last_landed_timestamp_seconds", "partition", "0")).isEmpty();

            gates[0].release();
            gates[1].awaitHeld();
            pump.await(() -> metric("millpond_freshness_seconds", "partition", "0") < 3_000);
            assertAge("0", tenMinutesAgo);
            assertThat(metric("millpond_last_landed_timestamp_seconds", "partition", "0"))
                    .isEqualTo((hourAgo + 2_000) / 1000.0);

            gates[1].release();
            pump.await(() -> metric("millpond_freshness_seconds", "partition", "0") == 0);
            assertThat(metric("millpond_last_landed_timestamp_seconds", "partition", "0"))
                    .isEqualTo((tenMinutesAgo + 1_000) / 1000.0);
            assertThat(kafka.committedOffsets(config.groupId(), topic)).containsEntry(0, 5L);
            pump.stop();
        }
    }

    /** The reported freshness of a partition is the age of a record stamped {@code stamped}, as of the scrape. */
    private void assertAge(String partition, long stamped) {
        long before = System.currentTimeMillis();
        double age = metric("millpond_freshness_seconds", "partition", partition);
        long after = System.currentTimeMillis();
        assertThat(age).isBetween((before - stamped) / 1000.0, (after - stamped) / 1000.0);
    }

    // ---- helpers

    /** Whether the pump thread waits for the flush in flight to end (before a flush or a stop, the same wait). */
    private static boolean waitsForTheWriteInFlight(Thread pumpThread) {
        return Arrays.stream(pumpThread.getStackTrace()).anyMatch(frame ->
                frame.getClassName().equals(Pump.class.getName()) && frame.getMethodName().equals("awaitInFlight"));
    }

    private Pipeline open(MillpondConfig config, java.util.function.UnaryOperator<Sink> decorator) throws Exception {
        MillpondMetrics metrics = new MillpondMetrics(registry, config.pipelineLabel(), config.brokerSource());
        return Pipeline.open(config, metrics, health, AppProcess.extensionDirectory().toString(), decorator,
                sleeps::add);
    }

    private MillpondConfig config(Map<String, String> overrides) {
        Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic);
        env.putAll(overrides);
        return ConfigLoader.load(env);
    }

    private void produce(int partition, long firstId, int count) {
        kafka.produce(topic, partition, SampleEvents.events(firstId, count));
    }

    /** One sample event per timestamp, stamped so. */
    private void produceStamped(int partition, long firstId, Long... timestamps) {
        kafka.produceStamped(topic, partition, SampleEvents.events(firstId, timestamps.length), List.of(timestamps));
    }

    private static void runUntil(Pipeline pipeline, BooleanSupplier condition) throws Exception {
        RunningPump.runUntil(pipeline, condition, Duration.ofSeconds(60));
    }

    private double metric(String name, String... labels) {
        return metricOrEmpty(name, labels).orElse(0);
    }

    private OptionalDouble metricOrEmpty(String name, String... labels) {
        return AppProcess.metricIn(registry.scrape(), name, labels);
    }

    private long rows() throws SQLException {
        try (Connection c = lake.openQueryConnection()) {
            return DuckDbSql.queryLong(c, "SELECT count(*) FROM lake.main.events");
        }
    }

    /** Holds the write of flush number {@code held} (0-based) until released; records the threads that wrote. */
    static final class GatedSink extends ForwardingSink {
        private final int held;
        private final AtomicInteger flushes = new AtomicInteger();
        private final java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
        private final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);
        final List<String> writerThreads = Collections.synchronizedList(new ArrayList<>());

        GatedSink(Sink real, int held) {
            super(real);
            this.held = held;
        }

        void awaitHeld() throws InterruptedException {
            assertThat(holding.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("a write reached the sink").isTrue();
        }

        void release() {
            released.countDown();
        }

        @Override
        public long write(FlushBatch batch, int attempt) throws Exception {
            writerThreads.add(Thread.currentThread().getName());
            if (attempt == 1 && flushes.getAndIncrement() == held) {
                holding.countDown();
                // Bounded, so a test that fails before releasing ends instead of hanging the fork.
                if (!released.await(120, java.util.concurrent.TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never released the held write");
                }
            }
            return super.write(batch, attempt);
        }
    }

    /** The real sink, failing its first {@code failures} writes with a given message (as a catalog or S3 would). */
    static final class FlakySink extends ForwardingSink {
        private final int failures;
        private final String message;
        private final AtomicInteger attempts = new AtomicInteger();
        /** The attempt numbers the pump passed, in order. */
        final List<Integer> attemptNumbers = Collections.synchronizedList(new ArrayList<>());

        FlakySink(Sink real, int failures, String message) {
            super(real);
            this.failures = failures;
            this.message = message;
        }

        @Override
        public long write(FlushBatch batch, int attempt) throws Exception {
            attemptNumbers.add(attempt);
            if (attempts.getAndIncrement() < failures) {
                throw new SQLException(message);
            }
            return super.write(batch, attempt);
        }
    }
}
