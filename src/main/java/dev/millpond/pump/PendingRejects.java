package dev.millpond.pump;

import dev.millpond.convert.ConvertedBatch;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.SkipReason;
import dev.millpond.sinks.RejectedRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The records of the pending flush that could not become rows (unparseable, needing a column past the width bound,
 * or holding U+0000 where the lake cannot store it), kept with their partition, offset and reason until the flush hands them to the sink, which lands them in
 * the same commit as the rows. When the sink does not keep rejects they are only counted, as before.
 */
final class PendingRejects {

    private static final Logger LOG = Logger.getLogger(PendingRejects.class);
    private static final long WARN_INTERVAL_NANOS = Duration.ofSeconds(10).toNanos();

    private final boolean keep;
    private final int maxValueBytes;
    private final MillpondMetrics metrics;
    private final List<RejectedRecord> records = new ArrayList<>();
    private long bytes;
    private long lastWarnNanos = System.nanoTime() - 2 * WARN_INTERVAL_NANOS;
    private long suppressedWarnings;

    PendingRejects(boolean keep, int maxValueBytes, MillpondMetrics metrics) {
        this.keep = keep;
        this.maxValueBytes = maxValueBytes;
        this.metrics = metrics;
    }

    List<RejectedRecord> records() {
        return List.copyOf(records);
    }

    boolean isEmpty() {
        return records.isEmpty();
    }

    /** Heap held, which triggers a flush long before FLUSH_SIZE would. */
    long bytes() {
        return bytes;
    }

    void clear() {
        records.clear();
        bytes = 0;
    }

    /** After the flush that carried {@code landed} committed. */
    void committed(List<RejectedRecord> landed) {
        long truncated = 0;
        for (RejectedRecord r : landed) {
            metrics.recordsRejected(r.reason(), 1);
            if (r.truncated()) {
                truncated++;
            }
        }
        metrics.rejectsTruncated(truncated);
    }

    /**
     * Keeps the values that did not parse as rejects and returns, per row of the converted batch, the index of the
     * value it came from (rows are the values that parsed, in order).
     */
    int[] setAsideUnparsed(ConvertedBatch converted, List<ConsumerRecord<byte[], byte[]>> sources) {
        if (converted.root() != null && converted.failures().size() != converted.failed()) {
            // Rows could not be traced back to their Kafka records; a converter bug that tests must catch.
            throw new IllegalStateException("the converter reported " + converted.failed() + " failed values but listed "
                    + converted.failures().size());
        }
        int[] valueOfRow = new int[converted.rows()];
        boolean[] failed = new boolean[sources.size()];
        for (ConvertedBatch.Failure f : converted.failures()) {
            failed[f.index()] = true;
            reject(sources.get(f.index()), SkipReason.JSON_PARSE, f.reason());
        }
        if (converted.root() == null) {
            // Only objects without keys parsed: they make no row, so they are kept with the failures.
            for (int i = 0; i < sources.size(); i++) {
                if (!failed[i]) {
                    reject(sources.get(i), SkipReason.JSON_PARSE, "an object without keys");
                }
            }
            return valueOfRow;
        }
        int row = 0;
        for (int i = 0; i < sources.size() && row < valueOfRow.length; i++) {
            if (!failed[i]) {
                valueOfRow[row++] = i;
            }
        }
        return valueOfRow;
    }

    void setAsideTooWide(ColumnBudget.Admitted admitted, int[] valueOfRow,
                         List<ConsumerRecord<byte[], byte[]>> sources) {
        String error = "needs column " + shortened(admitted.firstColumn()) + " beyond the table's width bound"
                + " (MILLPOND_MAX_TABLE_COLUMNS / MILLPOND_MAX_NEW_COLUMNS_PER_FLUSH)";
        setAside(admitted.rejectedRows(), valueOfRow, sources, SkipReason.COLUMN_LIMIT, error);
    }

    void setAsideNul(NulGuard.Guarded guarded, int[] valueOfRow, List<ConsumerRecord<byte[], byte[]>> sources) {
        String error = "the value of " + shortened(guarded.firstColumn()) + " holds the character U+0000, which the"
                + " lake cannot store in a column the table is partitioned by (DUCKLAKE_PARTITION_BY)";
        setAside(guarded.refusedRows(), valueOfRow, sources, SkipReason.NUL_IN_PARTITION_VALUE, error);
    }

    private void setAside(int[] rows, int[] valueOfRow, List<ConsumerRecord<byte[], byte[]>> sources,
                          SkipReason reason, String error) {
        metrics.recordsSkipped(reason, rows.length);
        for (int r : rows) {
            reject(sources.get(valueOfRow[r]), reason, error);
        }
        warnRejected(sources.get(valueOfRow[rows[0]]), rows.length, error);
    }

    private static String shortened(String column) {
        return column.length() <= 100 ? column : column.substring(0, 100) + "…";
    }

    private void reject(ConsumerRecord<byte[], byte[]> record, SkipReason reason, String error) {
        if (!keep) {
            return;
        }
        RejectedRecord r = RejectedRecord.of(record.topic(), record.partition(), record.offset(), record.timestamp(),
                reason.label(), error, record.value(), maxValueBytes);
        records.add(r);
        bytes += r.bytes();
        if (r.truncated()) {
            // The operator chose the cap; still, the lake is about to hold less than the record, and Kafka's
            // retention will take the rest, so each one is named.
            LOG.warnf("Rejected record at partition %d offset %d (%s) is %d bytes; only its first %d are kept"
                    + " (MILLPOND_REJECTS_MAX_VALUE_BYTES), value_truncated is set", r.partition(), r.offset(),
                    r.reason(), r.valueLength(), r.value().length);
        }
    }

    /** One WARN per 10 s at most, naming where the first set-aside record is; the rest go to DEBUG, counted. */
    private void warnRejected(ConsumerRecord<byte[], byte[]> first, int count, String error) {
        long now = System.nanoTime();
        String where = keep ? "kept in the rejects table" : "dropped (MILLPOND_REJECTS=false)";
        if (now - lastWarnNanos >= WARN_INTERVAL_NANOS) {
            lastWarnNanos = now;
            LOG.warnf("%d record(s) set aside, %s; first at partition %d offset %d: %s%s", count, where,
                    first.partition(), first.offset(), error, suppressedWarnings > 0
                            ? " (" + suppressedWarnings + " similar warning(s) suppressed)" : "");
            suppressedWarnings = 0;
        } else {
            suppressedWarnings++;
            LOG.debugf("%d record(s) set aside, %s; first at partition %d offset %d: %s", count, where,
                    first.partition(), first.offset(), error);
        }
    }
}
