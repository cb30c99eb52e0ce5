package dev.millpond.pump;

import dev.millpond.convert.ArrowSizes;
import dev.millpond.convert.BatchUnifier;
import dev.millpond.convert.ConvertedBatch;
import dev.millpond.convert.JsonToArrow;
import dev.millpond.convert.UnifiedBatches;
import dev.millpond.kafka.LagMonitor;
import dev.millpond.observability.ErrorType;
import dev.millpond.observability.FlushTrigger;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.observability.SkipReason;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.RejectedRecord;
import dev.millpond.sinks.Sink;
import dev.millpond.stages.RecordStages;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one loop: consume → JSON → Arrow → accumulate → (size or time) → write → commit offsets. Everything here runs
 * on one thread, the pump thread, except the write itself when writes overlap ({@link FlushWriter}): then flush N is
 * written on the writer thread while this thread consumes and converts flush N+1, and commits N's offsets (its own
 * ledger) when it sees N landed. Other threads only read {@link PumpHealth} and the metrics, and may call
 * {@link #requestStop()}. Offsets are committed only after the sink accepted the rows, so Kafka stays the buffer and
 * nothing is lost; a flush that failed commits nothing, and neither does anything consumed after it.
 */
public final class Pump {

    private static final Logger LOG = Logger.getLogger(Pump.class);
    private static final long HEARTBEAT_NANOS = Duration.ofSeconds(60).toNanos();
    private static final long HEARTBEAT_POLL_NANOS = Duration.ofSeconds(1).toNanos();
    /** While a write is in flight a poll returns at least this often, so its landing is committed promptly. */
    private static final long IN_FLIGHT_POLL_MS = 200;
    /** How long a write still running is waited for when the pump is discarded after a failure elsewhere. */
    private static final long DISCARD_GRACE_MS = 30_000;

    private final PumpSettings settings;
    private final Consumer<byte[], byte[]> consumer;
    private final AdaptivePoller poller;
    private final JsonToArrow converter;
    private final BatchUnifier unifier;
    private final RecordStages stages;
    /** Asked only for its live columns after each flush, so the width bound sees what the table now holds. */
    private final Sink sink;
    private final MillpondMetrics metrics;
    private final PumpHealth health;
    private final LagMonitor lag;
    private final FlushWriter writer;
    private final RetryPolicy commitRetry;
    private final Sleeper sleeper;
    private final ColumnBudget columnBudget;
    private final PendingRejects rejects;

    private final PendingBuffer pending = new PendingBuffer();
    private final OffsetLedger ledger = new OffsetLedger();
    private final FlushPhases phases = new FlushPhases();
    private FlushPlans plans = FlushPlans.off();
    /** The flush handed to the writer whose outcome the pump has not taken in yet; at most one. */
    private volatile InFlightFlush inFlight;
    private volatile boolean stopRequested;
    private long lastFlushNanos = System.nanoTime();
    private long lastHeartbeatNanos = System.nanoTime();

    /** @param columnBudget the width bound each poll batch is held to before it is buffered */
    public Pump(PumpSettings settings, Consumer<byte[], byte[]> consumer, JsonToArrow converter, BatchUnifier unifier,
                RecordStages stages, Sink sink, MillpondMetrics metrics, PumpHealth health, LagMonitor lag,
                WriteRetry writeRetry, Sleeper sleeper, ColumnBudget columnBudget) {
        this.columnBudget = columnBudget;
        columnBudget.flushed(sink.liveColumns());
        this.rejects = new PendingRejects(sink.keepsRejects(), settings.rejectMaxValueBytes(), metrics);
        this.settings = settings;
        this.consumer = consumer;
        this.poller = new AdaptivePoller(consumer);
        this.converter = converter;
        this.unifier = unifier;
        this.stages = stages;
        this.sink = sink;
        this.metrics = metrics;
        this.health = health;
        this.lag = lag;
        WriteLadder writeLadder = new WriteLadder(sink, metrics, health, writeRetry, sleeper);
        this.writer = settings.overlapWrites() ? FlushWriter.overlapped(writeLadder)
                : FlushWriter.inline(writeLadder, this::waitOutOutage);
        this.commitRetry = RetryPolicy.offsetCommits();
        this.sleeper = sleeper;
    }

    /** Records each flush's plan before writing it, and cuts the first flush at the one recorded; before {@link #run}. */
    public void useFlushPlans(FlushPlans plans) {
        this.plans = plans;
    }

    /** Asks the loop to finish its current step, flush what is pending, commit, and return. Safe from any thread. */
    public void requestStop() {
        stopRequested = true;
        writer.requestStop();
        consumer.wakeup();
    }

    /**
     * Runs until {@link #requestStop()} (then flushes and returns normally) or until a write or commit exhausts its
     * retries (then throws {@link PumpFailure} without flushing again: the rows are still in Kafka). A stop requested
     * while the sink is unavailable returns without writing or committing that flush.
     */
    public void run() {
        try {
            try {
                while (!stopRequested) {
                    iterate();
                }
            } catch (WakeupException e) {
                if (!stopRequested) {
                    throw e;
                }
            }
            // The flush being written when the stop came lands and is committed first; its failure is not the
            // shutdown flush's, so it ends the run as it would have without the stop.
            awaitInFlight();
        } catch (WriteLadder.Abandoned e) {
            LOG.warnf("%s: the flush is not written and its offsets are not committed; its records (and any consumed"
                    + " after them) will be consumed again on restart", e.getMessage());
            discardPending();
            return;
        } catch (RuntimeException | Error e) {
            discardPending();
            throw e;
        }
        shutdownFlush();
    }

    void iterate() {
        if (inFlight != null && inFlight.isDone()) {
            completeInFlight();
        }
        if (stopRequested) {
            // A Kafka call since the stop request (the commit above, a paused poll during a wait, the lag refresh)
            // may have used up the consumer's wakeup; without this check the poll below would block for its whole
            // timeout — up to a minute — before the loop saw the stop.
            return;
        }
        long intervalNanos = settings.flushIntervalMs() * 1_000_000L;
        long sinceFlush = System.nanoTime() - lastFlushNanos;
        long timeoutMs = Math.max(100, Math.min(60_000, (intervalNanos - sinceFlush) / 1_000_000L));
        if (inFlight != null) {
            timeoutMs = Math.min(timeoutMs, IN_FLIGHT_POLL_MS);
        }
        int batchSize = settings.batchSize(pending.bytes());
        metrics.consumeBatchSize(batchSize);
        if (settings.flushSizeBytes() > 0) {
            metrics.bufferFullness(Math.round(1000.0 * pending.bytes() / settings.flushSizeBytes()) / 1000.0);
        }

        AdaptivePoller.Polled polled;
        long pollStart = System.nanoTime();
        try {
            polled = poller.poll(batchSize, Duration.ofMillis(timeoutMs));
            phases.poll(System.nanoTime() - pollStart);
        } catch (WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            metrics.error(ErrorType.KAFKA);
            LOG.warnf("Kafka consume error: %s", e.toString());
            sleeper.sleep(1.0);
            return;
        }
        health.pollReturned();
        heartbeat();
        lag.tick(consumer);
        // While a recorded flush is replayed, records past its end are held back, so a position is not yet covered.
        boolean positionsCovered = !plans.replayIncomplete();
        List<ConsumerRecord<byte[], byte[]>> records = plans.admit(polled.records());

        List<byte[]> values = new ArrayList<>(records.size());
        List<ConsumerRecord<byte[], byte[]>> sources = new ArrayList<>(records.size());
        Map<Integer, Integer> consumedPerPartition = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            consumedPerPartition.merge(record.partition(), 1, Integer::sum);
            ledger.handled(record.partition(), record.offset());
            if (record.value() != null) {
                values.add(record.value());
                sources.add(record);
            }
        }
        if (positionsCovered) {
            polled.positions().forEach(ledger::reached);
        }
        consumedPerPartition.forEach(metrics::recordsConsumed);
        if (!values.isEmpty()) {
            accumulate(values, sources);
        }

        boolean sizeFired = settings.flushSizeBytes() <= 0 ? !records.isEmpty()
                : pending.bytes() >= settings.flushSizeBytes() || pending.allocated() >= settings.pendingMemoryBytes()
                || rejects.bytes() >= Math.min(settings.flushSizeBytes(), settings.pendingRejectBytes());
        boolean timeFired = System.nanoTime() - lastFlushNanos >= intervalNanos;
        PlanReplay.Step planned = plans.step();
        if (planned == PlanReplay.Step.HOLD || planned == PlanReplay.Step.NORMAL && !sizeFired && !timeFired) {
            return;
        }
        if (pending.records() > 0 || !rejects.isEmpty()) {
            flush(sizeFired ? FlushTrigger.SIZE : FlushTrigger.TIME);
        } else if (!ledger.isEmpty()) {
            // Skipped records and tombstones still move the committed offset — after the flush before
            // them landed, since a commit covers every offset below it.
            awaitInFlight();
            committed(commitWithRetry(ledger));
            lastFlushNanos = System.nanoTime();
        }
    }

    private void accumulate(List<byte[]> values, List<ConsumerRecord<byte[], byte[]>> sources) {
        long t0 = System.nanoTime();
        ConvertedBatch converted = converter.convert(values);
        long convertNanos = System.nanoTime() - t0;
        phases.convert(convertNanos);
        if (converted.rows() > 0) {
            metrics.arrowConversion(convertNanos / 1e9);
        }
        metrics.recordsSkipped(SkipReason.JSON_PARSE, values.size() - converted.rows());
        int[] valueOfRow = rejects.setAsideUnparsed(converted, sources);
        VectorSchemaRoot root = converted.root();
        if (root == null) {
            return;
        }
        long nbytes = converted.nbytes();
        ColumnBudget.Admitted admitted = columnBudget.admit(root);
        if (admitted.rejectedRows().length > 0) {
            rejects.setAsideTooWide(admitted, valueOfRow, sources);
        }
        if (admitted.root() != root) {
            root = admitted.root();
            if (root == null) {
                return;
            }
            nbytes = ArrowSizes.nbytes(root);
        }
        if (!stages.isPerPollBatchNoop()) {
            // coerce → keep → drop; the offsets of filtered-out records stay in the ledger, to be committed
            long stagesStart = System.nanoTime();
            root = stages.applyPerPollBatch(root);
            nbytes = ArrowSizes.nbytes(root);
            phases.stages(System.nanoTime() - stagesStart);
        }
        if (root.getRowCount() == 0) {
            root.close();
            return;
        }
        pending.add(root, nbytes);
        metrics.pendingBytes(pending.bytes());
    }

    /**
     * On the pump thread, in this order: the previous flush lands and is committed (at most one write in flight);
     * this flush is prepared (unified, sorted, given the ledger, rejects and phase times so far); it is handed to the
     * writer; its landing is taken in by {@link #completeInFlight()} — here at once when writes do not overlap, else
     * on a later iteration — which commits its offsets.
     */
    private void flush(FlushTrigger trigger) {
        awaitInFlight();
        InFlightFlush flush = prepare(trigger);
        try {
            // Whatever Kafka must hear before the write starts is committed here, still on this thread, after the
            // flush before it landed and was committed (a plan commit carries this flush's first offsets).
            plans.beforeFirstAttempt(flush.batch.ranges());
        } catch (RuntimeException | Error e) {
            flush.release();
            throw e;
        }
        writer.start(flush);
        inFlight = flush;
        lastFlushNanos = System.nanoTime();
        if (!writer.overlaps()) {
            completeInFlight();
            lastFlushNanos = System.nanoTime();
        }
    }

    /** Takes the buffer's batches, the ledger and the rejects for one flush; the buffer starts the next one empty. */
    private InFlightFlush prepare(FlushTrigger trigger) {
        long started = System.nanoTime();
        long bytes = pending.bytes();
        long records = pending.records();
        List<RejectedRecord> flushRejects = rejects.records();
        long unifyStart = System.nanoTime();
        UnifiedBatches unified = unifier.unify(pending.drain());
        SortedBatch sorted;
        try {
            sorted = sortTimed(unified, unifyStart);
        } catch (RuntimeException | Error e) {
            unified.close();
            throw e;
        }
        OffsetLedger flushLedger = ledger.handOff();
        List<OffsetRange> ranges = flushLedger.ranges(settings.topic());
        FlushBatch batch = sorted.root()
                .map(root -> new FlushBatch(root.getSchema(), List.of(root), records, ranges, flushRejects))
                .orElseGet(() -> new FlushBatch(unified.schema(), unified.batches(), records, ranges, flushRejects));
        rejects.clear();
        columnBudget.handedOff();
        metrics.pendingBytes(0);
        return new InFlightFlush(trigger, started, bytes, records, batch, List.of(sorted, unified), flushLedger,
                flushRejects, phases.handOff());
    }

    /**
     * Waits until the flush in flight (if any) ended and takes its outcome in. Meanwhile the assignment is paused
     * (so memory stays at the flush being filled) and polled, so the liveness probe stays fresh; a stop request does
     * not end the wait: the write in flight finishes (an outage wait on the writer gives up on its own).
     */
    private void awaitInFlight() {
        InFlightFlush flush = inFlight;
        if (flush == null) {
            return;
        }
        if (!flush.isDone()) {
            long waitStart = System.nanoTime();
            Set<TopicPartition> assigned = consumer.assignment();
            consumer.pause(assigned);
            try {
                while (!flush.await(IN_FLIGHT_POLL_MS)) {
                    try {
                        consumer.poll(Duration.ZERO); // paused: returns nothing
                        health.pollReturned();
                    } catch (WakeupException e) {
                        // requestStop(): the write in flight still ends first
                    } catch (KafkaException e) {
                        metrics.error(ErrorType.KAFKA);
                    }
                }
            } finally {
                consumer.resume(assigned);
            }
            flush.phases.waited(System.nanoTime() - waitStart);
        }
        completeInFlight();
    }

    /**
     * The flush in flight ended: on success its offsets are committed and its metrics and log line written; on
     * failure the {@link PumpFailure} (or {@link WriteLadder.Abandoned}) is raised and nothing is committed — the
     * caller discards what was consumed since, which the restart consumes again.
     */
    private void completeInFlight() {
        InFlightFlush flush = inFlight;
        inFlight = null;
        long written;
        try {
            written = flush.rowsWritten();
        } finally {
            flush.release();
        }
        metrics.flushDuration(flush.writeSeconds());
        columnBudget.landed(sink.liveColumns());
        pauseBeforeKafkaCommit();
        long commitStart = System.nanoTime();
        Map<Integer, Long> next = commitWithRetry(flush.ledger);
        flush.phases.commit(System.nanoTime() - commitStart);
        rejects.committed(flush.rejects);

        metrics.recordsWritten(written);
        metrics.batchFlushed(flush.trigger);
        metrics.flushSize(flush.bytes, flush.records);
        LOG.infof("Flush: %d records, %d bytes, %d columns, write=%ss, elapsed=%ss (%s)%s", flush.records,
                flush.bytes, flush.batch.schema().getFields().size(), seconds(flush.writeSeconds()),
                seconds((System.nanoTime() - flush.startedNanos) / 1e9), flush.phases.summary(),
                flush.rejects.isEmpty() ? "" : ", rejects=" + flush.rejects.size());
        committed(next);
        health.flushed();
    }

    /** Every commit, with rows or without, moves the committed-offset gauges and (rate-limited) the lag. */
    private void committed(Map<Integer, Long> next) {
        next.forEach(metrics::lastCommittedOffset);
        lag.maybeRefresh(consumer, next);
    }

    private SortedBatch sortTimed(UnifiedBatches unified, long unifyStart) {
        long sortStart = System.nanoTime();
        phases.unify(sortStart - unifyStart);
        SortedBatch sorted = new SortedBatch(unified.batches().isEmpty() ? Optional.empty()
                : stages.sortForWrite(unified.batches()));
        phases.sort(System.nanoTime() - sortStart);
        return sorted;
    }

    /** The test hook's window: the rows and their offsets are in the lake, Kafka does not know yet. */
    private void pauseBeforeKafkaCommit() {
        if (settings.pauseAfterLakeCommitMs() > 0) {
            LOG.infof("Test hook: lake commit done, pausing %d ms before the Kafka commit",
                    settings.pauseAfterLakeCommitMs());
            sleeper.sleep(settings.pauseAfterLakeCommitMs() / 1000.0);
            // The window's end, before the commit starts: a kill the log shows between the two lines landed inside it.
            LOG.info("Test hook: pause over, committing to Kafka");
        }
    }

    /**
     * When writes do not overlap: waits while the sink is unavailable without consuming anything new (the assignment
     * is paused, so memory stays at the pending flush), polling all along so the liveness probe stays fresh. A stop
     * request ends the wait.
     */
    private boolean waitOutOutage(double seconds) {
        Set<TopicPartition> assigned = consumer.assignment();
        consumer.pause(assigned);
        try {
            long deadline = System.nanoTime() + (long) (seconds * 1e9);
            for (long left; !stopRequested && (left = deadline - System.nanoTime()) > 0; ) {
                try {
                    consumer.poll(Duration.ofNanos(Math.min(left, HEARTBEAT_POLL_NANOS))); // paused: returns nothing
                    health.pollReturned();
                } catch (WakeupException e) {
                    // requestStop(): the loop condition sees it
                } catch (KafkaException e) {
                    metrics.error(ErrorType.KAFKA);
                    sleeper.sleep(Math.min(1.0, left / 1e9));
                }
            }
            return !stopRequested;
        } finally {
            consumer.resume(assigned);
        }
    }

    /** @return the offset committed per partition */
    private Map<Integer, Long> commitWithRetry(OffsetLedger committing) {
        Map<Integer, Long> next = committing.nextOffsets();
        var request = committing.commitRequest(settings.topic());
        for (int attempt = 0; ; attempt++) {
            try {
                consumer.commitSync(request);
                committing.clear();
                return next;
            } catch (WakeupException e) {
                // A stop request must not abandon a commit whose write already succeeded.
                attempt--;
            } catch (KafkaException e) {
                metrics.error(ErrorType.OFFSET_COMMIT);
                if (attempt + 1 >= commitRetry.attempts()) {
                    LOG.errorf("Offset commit failed after %d attempts — duplicates possible on restart",
                            commitRetry.attempts());
                    throw new PumpFailure("Offset commit failed after " + commitRetry.attempts() + " attempts", e);
                }
                LOG.warnf("Offset commit attempt %d failed: %s", attempt + 1, e.toString());
                sleeper.sleep(commitRetry.delaySeconds(attempt));
            }
        }
    }

    /** The shutdown flush follows the same rules as any flush (write, then commit); a failure is logged, not raised. */
    private void shutdownFlush() {
        try {
            if (plans.replayIncomplete()) {
                LOG.info("Shutdown: the recorded flush is not complete yet; not flushing, it is replayed on restart");
            } else if (pending.records() > 0 || !rejects.isEmpty()) {
                LOG.infof("Shutdown: flushing %d pending records", pending.records());
                flush(FlushTrigger.TIME);
                awaitInFlight();
            } else if (!ledger.isEmpty()) {
                committed(commitWithRetry(ledger));
            }
        } catch (RuntimeException e) {
            LOG.errorf(e, "Shutdown flush failed; uncommitted records will be consumed again on restart");
        } finally {
            discardPending();
        }
    }

    /**
     * Releases Arrow memory still held after a fatal failure or at the end, and ends the writer thread. Nothing is
     * committed: a write still in flight (the pump failed elsewhere) is given a grace period to end, and its memory
     * is released only if it did, since the writer reads those buffers until then.
     */
    public void discardPending() {
        pending.close();
        ledger.clear();
        InFlightFlush flush = inFlight;
        inFlight = null;
        if (writer.shutDown(flush, DISCARD_GRACE_MS) && flush != null) {
            flush.release();
        }
    }

    private void heartbeat() {
        long now = System.nanoTime();
        if (now - lastHeartbeatNanos >= HEARTBEAT_NANOS) {
            lastHeartbeatNanos = now;
            LOG.infof("Heartbeat: pending=%d records (%d bytes), partitions=%d", pending.records(), pending.bytes(),
                    consumer.assignment().size());
        }
    }

    /** The pre-write sort's output, when there is one, closed with the flush. */
    private record SortedBatch(Optional<VectorSchemaRoot> root) implements AutoCloseable {
        @Override
        public void close() {
            root.ifPresent(VectorSchemaRoot::close);
        }
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.2f", s);
    }
}
