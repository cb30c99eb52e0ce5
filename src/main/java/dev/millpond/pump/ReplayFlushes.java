package dev.millpond.pump;

import dev.millpond.convert.BatchUnifier;
import dev.millpond.convert.JsonToArrow;
import dev.millpond.observability.FlushTrigger;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.RejectedRecord;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.StoredReject;
import dev.millpond.stages.RecordStages;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Records kept in the rejects table, run again through the pump's own steps as they are configured now: JSON to
 * Arrow, the table's width bound, coerce, keep and drop, then a flush's unification and sort ({@link OpenFlush}, the
 * class the pump fills). What comes out is one flush for the sink: the rows that now land, the records rejected again
 * (with their new reason) and the rejects-table rows it replaces, and no Kafka offsets, since the records are not new.
 * A value is never cut here (MILLPOND_REJECTS_MAX_VALUE_BYTES is not applied again): the lake holds it whole, and a
 * record rejected again must stay whole. One flush at a time, on one thread.
 */
public final class ReplayFlushes {

    private final OpenFlush open;

    /** @param columnBudget the width bound, as the writer sets it up; it starts from the sink's live columns */
    public ReplayFlushes(String topic, JsonToArrow converter, BatchUnifier unifier, RecordStages stages,
                         ColumnBudget columnBudget, Sink sink, MillpondMetrics metrics) {
        columnBudget.flushed(sink.liveColumns());
        PumpSettings settings = new PumpSettings(topic, Long.MAX_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE, 0,
                Integer.MAX_VALUE, Long.MAX_VALUE, false, Long.MAX_VALUE);
        this.open = new OpenFlush(settings, converter, unifier, stages, columnBudget, true, metrics);
    }

    /** A reject read back for replay: the record it keeps and every rejects-table row that holds it. */
    public record Replayed(RejectedRecord record, List<StoredReject> rows) {
    }

    /**
     * Runs {@code records} through the steps; the caller writes {@link Flush#batch()} and then closes the flush,
     * after {@link Flush#landed} when it landed.
     */
    public Flush prepare(List<Replayed> records) {
        List<ConsumerRecord<byte[], byte[]>> consumed = new ArrayList<>(records.size());
        List<StoredReject> rows = new ArrayList<>();
        for (Replayed r : records) {
            RejectedRecord k = r.record();
            consumed.add(new ConsumerRecord<>(k.topic(), k.partition(), k.offset(),
                    k.timestampMs() >= 0 ? k.timestampMs() : ConsumerRecord.NO_TIMESTAMP,
                    k.timestampMs() >= 0 ? TimestampType.CREATE_TIME : TimestampType.NO_TIMESTAMP_TYPE,
                    ConsumerRecord.NULL_SIZE, k.value().length, null, k.value(), new RecordHeaders(),
                    Optional.empty()));
            rows.addAll(r.rows());
        }
        open.add(consumed, Map.of());
        InFlightFlush flush = open.handOff(FlushTrigger.SIZE);
        return new Flush(flush, flush.batch.replaying(rows));
    }

    /** One replayed flush, holding its Arrow memory until closed. */
    public final class Flush implements AutoCloseable {

        private final InFlightFlush flush;
        private final FlushBatch batch;

        private Flush(InFlightFlush flush, FlushBatch batch) {
            this.flush = flush;
            this.batch = batch;
        }

        /** What the sink writes: rows, rejects, the replayed rows; no offsets. */
        public FlushBatch batch() {
            return batch;
        }

        /** The records that failed again, each with its new reason. */
        public List<RejectedRecord> rejectedAgain() {
            return flush.rejects;
        }

        /** The flush landed and the table now has {@code liveColumns}: the width bound counts from them. */
        public void landed(Collection<String> liveColumns) {
            open.landed(flush, liveColumns);
        }

        /** The columns of this flush's rows (what a dry run adds to the table it imagines). */
        public List<String> columns() {
            return batch.schema().getFields().stream().map(f -> f.getName()).toList();
        }

        @Override
        public void close() {
            flush.release();
        }
    }
}
