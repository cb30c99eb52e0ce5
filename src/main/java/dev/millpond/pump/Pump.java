package dev.millpond.pump;

import dev.millpond.convert.BatchUnifier;
import dev.millpond.convert.JsonToArrow;
import dev.millpond.kafka.LagMonitor;
import dev.millpond.kafka.OutOfRangeResets;
import dev.millpond.kafka.PartitionAssignment;
import dev.millpond.kafka.PartitionRefresh;
import dev.millpond.observability.ErrorType;
import dev.millpond.observability.FlushTrigger;
import dev.millpond.observability.Freshness;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.sinks.Sink;
import dev.millpond.stages.RecordStages;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one loop: consume → {@link OpenFlush} (JSON → Arrow → buffer) → (size or time) → write → commit offsets.
 * Everything here runs on one thread, the pump thread, except the write itself when writes overlap
 * ({@link FlushWriter}): then flush N is written on the writer thread while this thread consumes and converts flush
 * N+1, and commits N's offsets (its own ledger) when it sees N landed. Other threads only read {@link PumpHealth} and
 * the metrics, and may call {@link #requestStop()}. Offsets are committed only after the sink accepted the rows, so
 * Kafka stays the buffer and nothing is lost; a flush that failed commits nothing, and neither does anything consumed
 * after it.
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
    /** Asked only for its live columns after each flush, so the width bound sees what the table now holds. */
    private final Sink sink;
    private final MillpondMetrics metrics;
    /** How late each partition's records land, told after every iteration (see {@link #publishFreshness()}). */
    private final Freshness freshness;
    private final PumpHealth health;
    private final LagMonitor lag;
    /** Takes up partitions added to the topic while the pump runs, and notices the topic being recreated. */
    private final PartitionRefresh partitions;
    /** Applies the reset policy when the next offset of a partition is no longer in its log. */
    private final OutOfRangeResets outOfRange;
    private final FlushWriter writer;
    private final OffsetCommitter committer;
    private final PausedConsumer paused;
    private final Sleeper sleeper;
    /** The flush being filled: its rows, rejects, offsets, width bound and phase times. */
    private final OpenFlush open;
    private FlushPlans plans = FlushPlans.off();
    /** The flush handed to the writer whose outcome the pump has not taken in yet; at most one. */
    private volatile InFlightFlush inFlight;
    private volatile boolean stopRequested;
    private long lastFlushNanos = System.nanoTime();
    private long lastHeartbeatNanos = System.nanoTime();
    /** The assignment {@link #assigned} was read from; replaced when partitions are taken up. */
    private PartitionAssignment assignment;
    private List<TopicPartition> assigned = List.of();

    /**
     * @param columnBudget the width bound each poll batch is held to before it is buffered
     * @param partitions   the assignment as it grows; its topic id is recorded with every flush's offset ranges
     */
    public Pump(PumpSettings settings, Consumer<byte[], byte[]> consumer, JsonToArrow converter, BatchUnifier unifier,
                RecordStages stages, Sink sink, MillpondMetrics metrics, PumpHealth health, LagMonitor lag,
                PartitionRefresh partitions, OutOfRangeResets outOfRange, WriteRetry writeRetry, Sleeper sleeper,
                ColumnBudget columnBudget) {
        columnBudget.flushed(sink.liveColumns());
        this.open = new OpenFlush(settings, converter, unifier, stages, columnBudget, sink.columnsRefusingNul(),
                sink.keepsRejects(), metrics);
        this.open.identifyTopic(partitions.current().topicId());
        this.partitions = partitions;
        this.outOfRange = outOfRange;
        this.settings = settings;
        this.consumer = consumer;
        this.poller = new AdaptivePoller(consumer);
        this.sink = sink;
        this.metrics = metrics;
        this.freshness = metrics.freshness();
        this.health = health;
        this.lag = lag;
        WriteLadder writeLadder = new WriteLadder(sink, metrics, health, writeRetry, sleeper);
        this.writer = settings.overlapWrites() ? FlushWriter.overlapped(writeLadder)
                : FlushWriter.inline(writeLadder, this::waitOutOutage);
        this.committer = new OffsetCommitter(consumer, metrics, RetryPolicy.offsetCommits(), sleeper, LOG);
        this.paused = new PausedConsumer(consumer, health, metrics);
        this.sleeper = sleeper;
    }

    /** Records each flush's plan before writing it, and cuts the first flush at the one recorded; before {@link #run}. */
    public void useFlushPlans(FlushPlans plans) {
        this.plans = plans;
        if (plans.replaysPlanWithoutTopicId()) {
            open.nextFlushWithoutTopicId();
        }
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
        int batchSize = settings.batchSize(open.bytes());
        metrics.consumeBatchSize(batchSize);
        if (settings.flushSizeBytes() > 0) {
            metrics.bufferFullness(Math.round(1000.0 * open.bytes() / settings.flushSizeBytes()) / 1000.0);
        }

        AdaptivePoller.Polled polled;
        long pollStart = System.nanoTime();
        try {
            polled = poller.poll(batchSize, Duration.ofMillis(timeoutMs));
            open.polled(System.nanoTime() - pollStart);
        } catch (WakeupException e) {
            throw e;
        } catch (OffsetOutOfRangeException e) {
            jumpOver(e);
            return;
        } catch (KafkaException e) {
            metrics.error(ErrorType.KAFKA);
            LOG.warnf("Kafka consume error: %s", e.toString());
            sleeper.sleep(1.0);
            return;
        }
        health.pollReturned();
        heartbeat();
        lag.tick(consumer);
        if (!plans.replayIncomplete()) {
            partitions.tick(consumer); // not while a recorded flush is cut again: a new partition would change it
        }
        // While a recorded flush is replayed, records past its end are held back, so a position is not yet covered.
        boolean positionsCovered = !plans.replayIncomplete();
        open.add(plans.admit(polled.records()), positionsCovered ? polled.positions() : Map.of());

        boolean sizeReached = open.sizeReached();
        boolean timeDue = System.nanoTime() - lastFlushNanos >= intervalNanos;
        PlanReplay.Step planned = plans.step();
        if (planned != PlanReplay.Step.HOLD && (planned != PlanReplay.Step.NORMAL || sizeReached || timeDue)) {
            flushOrCommit(sizeReached ? FlushTrigger.SIZE : FlushTrigger.TIME);
        }
        publishFreshness();
    }

    /**
     * Tells {@link Freshness} what the pump knows of each assigned partition: the oldest of its records not landed —
     * in the flush being written, else in the flush being filled, else returned by the consumer and not handed out
     * yet (these are in offset order) — or that it holds none, with the consumer's lag by its latest fetch. Once per
     * iteration, never per record; while the pump waits for a write it is not called, and the ages keep growing at
     * scrape time.
     */
    private void publishFreshness() {
        if (assignment != partitions.current()) {
            assignment = partitions.current();
            assigned = assignment.topicPartitions();
        }
        InFlightFlush writing = inFlight;
        for (TopicPartition tp : assigned) {
            int p = tp.partition();
            long oldest = writing == null ? OffsetLedger.NO_RECORD : writing.ledger.oldestTimestamp(p);
            if (oldest == OffsetLedger.NO_RECORD) {
                oldest = open.oldestTimestamp(p);
            }
            if (oldest == OffsetLedger.NO_RECORD) {
                oldest = poller.oldestNotHandedOut(p);
            }
            if (oldest != OffsetLedger.NO_RECORD) {
                freshness.held(p, oldest);
            } else {
                freshness.nothingHeld(p, consumer.currentLag(tp));
            }
        }
    }

    private void flushOrCommit(FlushTrigger trigger) {
        if (open.hasRecords()) {
            flush(trigger);
        } else if (open.hasOffsets()) {
            // Skipped records and tombstones still move the committed offset — after the flush before
            // them landed, since a commit covers every offset below it.
            awaitInFlight();
            committed(commitLanded(open.handOffOffsets()));
            lastFlushNanos = System.nanoTime();
        }
    }

    /**
     * A partition's next offset is no longer in its log: what is buffered is flushed first, so no flush's offset range
     * spans offsets that were never read (the lake's offsets and the audit then show the jump as the gap it is), then
     * the partition moves where the reset policy says and the next commit covers the jump.
     */
    private void jumpOver(OffsetOutOfRangeException e) {
        if (!plans.replayIncomplete()) {
            flushOrCommit(FlushTrigger.TIME);
        }
        open.jumped(outOfRange.reset(consumer, e));
    }

    /**
     * On the pump thread, in this order: the previous flush lands and is committed (at most one write in flight);
     * only then is the open flush handed off (unified, sorted, with its ledger, rejects and phase times so far), so
     * the width bound starts the next one from the table the previous flush left; it goes to the writer; its landing
     * is taken in by {@link #completeInFlight()} — here at once when writes do not overlap, else on a later
     * iteration — which commits its offsets.
     */
    private void flush(FlushTrigger trigger) {
        awaitInFlight();
        InFlightFlush flush = open.handOff(trigger);
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
            // requestStop() does not end this wait: the write in flight still ends first
            paused.pollWhile(() -> flush.await(IN_FLIGHT_POLL_MS) ? null : Duration.ZERO);
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
        // Read here, while no write is in flight (the sink's rule); the open flush takes them in once committed.
        List<String> liveColumns = sink.liveColumns();
        pauseBeforeKafkaCommit();
        long commitStart = System.nanoTime();
        Map<Integer, Long> next = commitLanded(flush.ledger);
        flush.phases.commit(System.nanoTime() - commitStart);
        open.landed(flush, liveColumns);

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

    /** Commits a ledger's offsets to Kafka: its records have landed, the newest of each partition as stamped. */
    private Map<Integer, Long> commitLanded(OffsetLedger ledger) {
        Map<Integer, Long> newest = ledger.newestTimestamps();
        Map<Integer, Long> next = committer.commit(ledger, settings.topic());
        newest.forEach(freshness::landed);
        return next;
    }

    /** Every commit, with rows or without, moves the committed-offset gauges and (rate-limited) the lag. */
    private void committed(Map<Integer, Long> next) {
        next.forEach(metrics::lastCommittedOffset);
        lag.maybeRefresh(consumer, next);
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
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        paused.pollWhile(new PausedConsumer.Wait() {
            private long left;

            @Override
            public Duration nextPoll() {
                return !stopRequested && (left = deadline - System.nanoTime()) > 0
                        ? Duration.ofNanos(Math.min(left, HEARTBEAT_POLL_NANOS)) : null;
            }

            @Override
            public void pollFailed() {
                sleeper.sleep(Math.min(1.0, left / 1e9));
            }
        });
        return !stopRequested;
    }

    /** The shutdown flush follows the same rules as any flush (write, then commit); a failure is logged, not raised. */
    private void shutdownFlush() {
        try {
            if (plans.replayIncomplete()) {
                LOG.info("Shutdown: the recorded flush is not complete yet; not flushing, it is replayed on restart");
            } else if (open.hasRecords()) {
                LOG.infof("Shutdown: flushing %d pending records", open.records());
                flush(FlushTrigger.TIME);
                awaitInFlight();
            } else if (open.hasOffsets()) {
                committed(commitLanded(open.handOffOffsets()));
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
        open.discard();
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
            LOG.infof("Heartbeat: pending=%d records (%d bytes), partitions=%d", open.records(), open.bytes(),
                    consumer.assignment().size());
        }
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.2f", s);
    }
}
