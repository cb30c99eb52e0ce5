package dev.millpond.pump;

import dev.millpond.convert.ArrowSizes;
import dev.millpond.convert.BatchUnifier;
import dev.millpond.convert.ConvertedBatch;
import dev.millpond.convert.JsonToArrow;
import dev.millpond.convert.UnifiedBatches;
import dev.millpond.observability.FlushTrigger;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.SkipReason;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.RejectedRecord;
import dev.millpond.stages.RecordStages;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The flush being filled, on the pump thread: its Arrow batches, its rejects, the offsets it covers (the ledger before
 * the hand-off), the width bound its batches are held to and the time its poll batches took. They are filled together
 * by {@link #add}, weighed together by {@link #sizeReached()}, leave together in {@link #handOff} and are settled
 * together by {@link #landed}, so they cannot drift apart.
 */
final class OpenFlush {

    private final PumpSettings settings;
    private final JsonToArrow converter;
    private final BatchUnifier unifier;
    private final RecordStages stages;
    private final ColumnBudget columnBudget;
    private final NulGuard nulGuard;
    private final MillpondMetrics metrics;
    private final PendingBuffer pending = new PendingBuffer();
    private final PendingRejects rejects;
    private final OffsetLedger ledger = new OffsetLedger();
    private final FlushPhases phases = new FlushPhases();
    /** Whether the last poll batch held any record: with no FLUSH_SIZE, every such batch is a flush. */
    private boolean lastBatchHadRecords;
    /** The topic's Kafka id, recorded with each flush's offset ranges. */
    private Optional<String> topicId = Optional.empty();
    /** The next hand-off names its ranges without the id (see {@link #nextFlushWithoutTopicId()}). */
    private boolean nextWithoutTopicId;

    /** A flush whose sink stores any text anywhere. */
    OpenFlush(PumpSettings settings, JsonToArrow converter, BatchUnifier unifier, RecordStages stages,
              ColumnBudget columnBudget, boolean keepRejects, MillpondMetrics metrics) {
        this(settings, converter, unifier, stages, columnBudget, java.util.Set.of(), keepRejects, metrics);
    }

    /**
     * @param columnBudget      the width bound each poll batch is held to before it is buffered
     * @param columnsRefusingNul the sink's columns whose text must not hold U+0000 ({@link NulGuard})
     */
    OpenFlush(PumpSettings settings, JsonToArrow converter, BatchUnifier unifier, RecordStages stages,
              ColumnBudget columnBudget, java.util.Set<String> columnsRefusingNul, boolean keepRejects,
              MillpondMetrics metrics) {
        this.settings = settings;
        this.converter = converter;
        this.unifier = unifier;
        this.stages = stages;
        this.columnBudget = columnBudget;
        this.nulGuard = new NulGuard(columnsRefusingNul);
        this.metrics = metrics;
        this.rejects = new PendingRejects(keepRejects, settings.rejectMaxValueBytes(), metrics);
    }

    /** Every flush handed off from now on records {@code id} with its offset ranges. */
    void identifyTopic(String id) {
        topicId = Optional.of(id);
    }

    /**
     * The next flush names its offset ranges by topic name alone: it rebuilds a flush that a version recording no
     * topic ids planned, and only the same ranges, named the same way, let the sink recognise it.
     */
    void nextFlushWithoutTopicId() {
        nextWithoutTopicId = true;
    }

    /**
     * The consumer jumped forward in these partitions over offsets it never read: the next commit covers them, so the
     * jump is not met again after a restart. Call when nothing is buffered for those partitions (the flush was cut
     * before the jump), so no flush's range spans offsets that were never read.
     */
    void jumped(Map<Integer, Long> positions) {
        positions.forEach(ledger::reached);
    }

    /** The time the poll that brought the next batch took. */
    void polled(long nanos) {
        phases.poll(nanos);
    }

    /**
     * Takes in one poll batch: every record's offset (tombstones and records that make no row too), the consumer's
     * positions past them, and the values as Arrow rows or rejects.
     *
     * @param positions the consumer's positions after the batch, or empty when they are not covered yet
     */
    void add(List<ConsumerRecord<byte[], byte[]>> records, Map<Integer, Long> positions) {
        List<byte[]> values = new ArrayList<>(records.size());
        List<ConsumerRecord<byte[], byte[]>> sources = new ArrayList<>(records.size());
        Map<Integer, Integer> consumedPerPartition = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            consumedPerPartition.merge(record.partition(), 1, Integer::sum);
            ledger.handled(record.partition(), record.offset(), record.timestamp());
            if (record.value() != null) {
                values.add(record.value());
                sources.add(record);
            }
        }
        positions.forEach(ledger::reached);
        consumedPerPartition.forEach(metrics::recordsConsumed);
        if (!values.isEmpty()) {
            accumulate(values, sources);
        }
        lastBatchHadRecords = !records.isEmpty();
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
        NulGuard.Guarded guarded = nulGuard.admit(root);
        if (guarded.refusedRows().length > 0) {
            rejects.setAsideNul(guarded, valueOfRow, sources);
            root = guarded.root();
            if (root == null) {
                return;
            }
            valueOfRow = guarded.rowsOf(valueOfRow);
            nbytes = ArrowSizes.nbytes(root);
        }
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
     * The size trigger: the rows reached FLUSH_SIZE, their Arrow memory its share of the budget, or the rejects their
     * heap bound; with no FLUSH_SIZE, the last poll batch held any record.
     */
    boolean sizeReached() {
        if (settings.flushSizeBytes() <= 0) {
            return lastBatchHadRecords;
        }
        return pending.bytes() >= settings.flushSizeBytes() || pending.allocated() >= settings.pendingMemoryBytes()
                || rejects.bytes() >= Math.min(settings.flushSizeBytes(), settings.pendingRejectBytes());
    }

    /** Rows or rejects to write. */
    boolean hasRecords() {
        return pending.records() > 0 || !rejects.isEmpty();
    }

    /** Offsets handled since the last hand-off (with nothing to write, they are committed alone). */
    boolean hasOffsets() {
        return !ledger.isEmpty();
    }

    long bytes() {
        return pending.bytes();
    }

    /** The Kafka timestamp of the partition's first record in this flush, or {@link OffsetLedger#NO_RECORD}. */
    long oldestTimestamp(int partition) {
        return ledger.oldestTimestamp(partition);
    }

    long records() {
        return pending.records();
    }

    /**
     * Unifies and sorts the batches and hands them to one flush with the ledger, the rejects and the phase times so
     * far; this object starts the next flush empty.
     */
    InFlightFlush handOff(FlushTrigger trigger) {
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
        List<OffsetRange> ranges = flushLedger.ranges(settings.topic(),
                nextWithoutTopicId ? Optional.empty() : topicId);
        nextWithoutTopicId = false;
        FlushBatch batch = sorted.root()
                .map(root -> new FlushBatch(root.getSchema(), List.of(root), records, ranges, flushRejects))
                .orElseGet(() -> new FlushBatch(unified.schema(), unified.batches(), records, ranges, flushRejects));
        rejects.clear();
        columnBudget.handedOff();
        metrics.pendingBytes(0);
        return new InFlightFlush(trigger, started, bytes, records, batch, List.of(sorted, unified), flushLedger,
                flushRejects, phases.handOff());
    }

    /** Hands only the offsets over, when there is nothing to write: skipped records and tombstones. */
    OffsetLedger handOffOffsets() {
        return ledger.handOff();
    }

    /**
     * The flush handed off before is in the table, which now has {@code liveColumns}, and its offsets are committed:
     * the width bound counts from the live table, and its rejects count as rejected.
     */
    void landed(InFlightFlush flush, Collection<String> liveColumns) {
        columnBudget.landed(liveColumns);
        rejects.committed(flush.rejects);
    }

    /** Releases the Arrow batches and forgets the offsets; nothing is committed. */
    void discard() {
        pending.close();
        ledger.clear();
    }

    private SortedBatch sortTimed(UnifiedBatches unified, long unifyStart) {
        long sortStart = System.nanoTime();
        phases.unify(sortStart - unifyStart);
        SortedBatch sorted = new SortedBatch(unified.batches().isEmpty() ? Optional.empty()
                : stages.sortForWrite(unified.batches()));
        phases.sort(System.nanoTime() - sortStart);
        return sorted;
    }

    /** The pre-write sort's output, when there is one, closed with the flush. */
    private record SortedBatch(Optional<VectorSchemaRoot> root) implements AutoCloseable {
        @Override
        public void close() {
            root.ifPresent(VectorSchemaRoot::close);
        }
    }
}
