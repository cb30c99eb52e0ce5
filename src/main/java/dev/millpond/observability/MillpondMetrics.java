package dev.millpond.observability;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Every metric millpond exports, under the Python original's names and labels, so existing dashboards and alerts keep
 * working after an image swap. Micrometer's Prometheus naming turns {@code millpond.records.consumed} into
 * {@code millpond_records_consumed_total}; each meter carries {@code pipeline} and {@code broker_source}.
 */
public final class MillpondMetrics {

    /** Python prometheus_client's default histogram buckets, which the original's flush-duration histogram used. */
    static final double[] DEFAULT_SECONDS_BUCKETS = {.005, .01, .025, .05, .075, .1, .25, .5, .75, 1, 2.5, 5, 7.5, 10};
    static final double[] FLUSH_BYTES_BUCKETS = {1e6, 5e6, 10e6, 25e6, 50e6, 100e6, 250e6, 500e6, 1e9};
    static final double[] FLUSH_RECORDS_BUCKETS = {100, 500, 1000, 5000, 10000, 50000, 100000, 500000, 1000000};

    private final MeterRegistry registry;
    private final Tags base;

    private final Counter recordsWritten;
    private final Timer flushDuration;
    private final Timer conversionSeconds;
    private final DistributionSummary flushSizeBytes;
    private final DistributionSummary flushSizeRecords;
    private final GaugeValue pendingBytes = new GaugeValue();
    private final GaugeValue bufferFullness = new GaugeValue();
    private final GaugeValue consumeBatchSize = new GaugeValue();
    private final Counter schemaColumnsAdded;
    private final Counter schemaColumnsWidened;
    private final Counter variantCompanionColumnsDropped;
    private final Counter variantWriteFallback;
    private final Counter variantValuesCoerced;
    private final Counter rejectsTruncated;

    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, GaugeValue> gauges = new ConcurrentHashMap<>();
    private final Freshness freshness;

    public MillpondMetrics(MeterRegistry registry, String pipeline, String brokerSource) {
        this(registry, pipeline, brokerSource, System::currentTimeMillis);
    }

    /** @param epochMillis the wall clock the freshness gauges take their age from (a test's own clock) */
    public MillpondMetrics(MeterRegistry registry, String pipeline, String brokerSource, LongSupplier epochMillis) {
        this.registry = registry;
        this.freshness = new Freshness(this, epochMillis);
        this.base = Tags.of("pipeline", pipeline, "broker_source", brokerSource);
        // Unlabelled series exist from the first scrape, as in the original.
        recordsWritten = Counter.builder("millpond.records.written").tags(base).register(registry);
        schemaColumnsAdded = Counter.builder("millpond.schema.columns.added").tags(base).register(registry);
        schemaColumnsWidened = Counter.builder("millpond.schema.columns.widened").tags(base).register(registry);
        rejectsTruncated = Counter.builder("millpond.rejects.truncated").tags(base).register(registry);
        flushDuration = secondsHistogram("millpond.flush.duration");
        conversionSeconds = secondsHistogram("millpond.arrow.conversion");
        flushSizeBytes = histogram("millpond.flush.size.bytes", FLUSH_BYTES_BUCKETS);
        flushSizeRecords = histogram("millpond.flush.size.records", FLUSH_RECORDS_BUCKETS);
        gauge("millpond.pending.bytes", Tags.empty(), pendingBytes);
        gauge("millpond.buffer.fullness", Tags.empty(), bufferFullness);
        gauge("millpond.consume.batch.size.current", Tags.empty(), consumeBatchSize);
        // The original creates these at startup whatever the configuration, so dashboards and alerts written against
        // it find them (at 0) on a replica that runs without the dynamic allowlist or VARIANT columns.
        for (String name : INCLUDE_VALUES_GAUGES) {
            includeValuesGauge(name);
        }
        counters.computeIfAbsent("millpond.include.values.poll.failures",
                k -> Counter.builder(k).tags(base).register(registry));
        variantCompanionColumnsDropped = Counter.builder("millpond.variant.companion.columns.dropped").tags(base)
                .register(registry);
        variantWriteFallback = Counter.builder("millpond.variant.write.fallback").tags(base).register(registry);
        variantValuesCoerced = Counter.builder("millpond.variant.values.coerced").tags(base).register(registry);
    }

    private static final String[] INCLUDE_VALUES_GAUGES = {"millpond.include.values.size",
        "millpond.include.values.pending.removals", "millpond.include.values.last.success.timestamp.seconds",
        "millpond.include.values.shadow.only.static", "millpond.include.values.shadow.only.remote",
        "millpond.include.values.pinned", "millpond.include.values.pinned.only"};

    private DistributionSummary histogram(String name, double[] buckets) {
        return DistributionSummary.builder(name).tags(base).serviceLevelObjectives(buckets).register(registry);
    }

    /** A Timer is Micrometer's seconds histogram; Prometheus sees {@code <name>_seconds_bucket/_sum/_count}. */
    private Timer secondsHistogram(String name) {
        Duration[] buckets = new Duration[DEFAULT_SECONDS_BUCKETS.length];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = Duration.ofNanos(Math.round(DEFAULT_SECONDS_BUCKETS[i] * 1e9));
        }
        return Timer.builder(name).tags(base).serviceLevelObjectives(buckets).register(registry);
    }

    private void gauge(String name, Tags extra, GaugeValue value) {
        Gauge.builder(name, value, GaugeValue::get).tags(base.and(extra)).register(registry);
    }

    private Counter counter(String name, String label, String value) {
        return counters.computeIfAbsent(name + '\u0000' + label + '\u0000' + value,
                k -> Counter.builder(name).tags(base.and(label, value)).register(registry));
    }

    private GaugeValue labelledGauge(String name, String label, String value) {
        return gauges.computeIfAbsent(name + '\u0000' + label + '\u0000' + value, k -> {
            GaugeValue g = new GaugeValue();
            gauge(name, Tags.of(label, value), g);
            return g;
        });
    }

    public void recordsConsumed(int partition, long n) {
        counter("millpond.records.consumed", "partition", Integer.toString(partition)).increment(n);
    }

    public void recordsWritten(long n) {
        recordsWritten.increment(n);
    }

    public void batchFlushed(FlushTrigger trigger) {
        counter("millpond.batches.flushed", "trigger", trigger.label()).increment();
    }

    public void recordsSkipped(SkipReason reason, long n) {
        if (n > 0) {
            counter("millpond.records.skipped", "reason", reason.label()).increment(n);
        }
    }

    /** Records landed in the rejects table by a committed flush, by reason ({@code json_parse}, {@code column_limit}). */
    public void recordsRejected(String reason, long n) {
        if (n > 0) {
            counter("millpond.records.rejected", "reason", reason).increment(n);
        }
    }

    /**
     * Rejects a committed flush stored cut at MILLPOND_REJECTS_MAX_VALUE_BYTES: their value in the lake is not the
     * whole record.
     */
    public void rejectsTruncated(long n) {
        if (n > 0) {
            rejectsTruncated.increment(n);
        }
    }

    public void error(ErrorType type) {
        counter("millpond.errors", "type", type.label()).increment();
    }

    public void flushDuration(double seconds) {
        flushDuration.record(Math.round(seconds * 1e9), TimeUnit.NANOSECONDS);
    }

    public void arrowConversion(double seconds) {
        conversionSeconds.record(Math.round(seconds * 1e9), TimeUnit.NANOSECONDS);
    }

    public void flushSize(long bytes, long records) {
        flushSizeBytes.record(bytes);
        flushSizeRecords.record(records);
    }

    public void pendingBytes(long bytes) {
        pendingBytes.set(bytes);
    }

    public void bufferFullness(double fullness) {
        bufferFullness.set(fullness);
    }

    public void consumeBatchSize(int size) {
        consumeBatchSize.set(size);
    }

    public void consumerLag(int partition, long lag) {
        labelledGauge("millpond.consumer.lag", "partition", Integer.toString(partition)).set(lag);
    }

    public void lastCommittedOffset(int partition, long offset) {
        labelledGauge("millpond.last.committed.offset", "partition", Integer.toString(partition)).set(offset);
    }

    /** The per-partition freshness the pump publishes ({@code millpond_freshness_seconds} and its companion). */
    public Freshness freshness() {
        return freshness;
    }

    /**
     * {@code millpond_freshness_seconds{partition}}, read at scrape time. Strong reference: {@link Freshness} keeps
     * the supplier's state, but a collected supplier would read NaN.
     */
    void freshnessGauge(int partition, DoubleSupplier seconds) {
        Gauge.builder("millpond.freshness.seconds", seconds, DoubleSupplier::getAsDouble)
                .tags(base.and("partition", Integer.toString(partition))).strongReference(true).register(registry);
    }

    /** {@code millpond_last_landed_timestamp_seconds{partition}}: the newest landed record's Kafka timestamp. */
    void lastLandedTimestamp(int partition, double epochSeconds) {
        labelledGauge("millpond.last.landed.timestamp.seconds", "partition", Integer.toString(partition))
                .set(epochSeconds);
    }

    public void schemaColumnAdded() {
        schemaColumnsAdded.increment();
    }

    public void schemaColumnWidened() {
        schemaColumnsWidened.increment();
    }

    public MeterRegistry registry() {
        return registry;
    }

    // ---- DuckLake sink ----

    /**
     * {@code millpond_variant_companion_columns_dropped_total}: one payload field stripped because it would write into
     * a VARIANT companion.
     */
    public void variantCompanionColumnDropped() {
        variantCompanionColumnsDropped.increment();
    }

    /**
     * {@code millpond_variant_write_fallback_total}: a flush whose INSERT failed on a VARIANT companion was written
     * again without companions.
     */
    public void variantWriteFallback() {
        variantWriteFallback.increment();
    }

    /**
     * {@code millpond_variant_values_coerced_total}: rows (per source) whose companion text had integers of
     * (INT64_MAX, UINT64_MAX] rewritten as JSON strings, counted once the flush is written.
     */
    public void variantValuesCoerced(long rows) {
        variantValuesCoerced.increment(rows);
    }

    /**
     * {@code millpond_variant_companions_nulled_total{column, reason}}: rows of a committed flush whose VARIANT
     * companion {@code column} is NULL although its source is JSON, because DuckDB cannot write that value faithfully
     * ({@code too_deep}, {@code duplicate_key}, {@code empty_key}) or not within its memory ({@code shred_width}).
     * Invalid JSON is not counted: its NULL companion is the documented one.
     */
    public void variantCompanionsNulled(String column, String reason, long rows) {
        if (rows > 0) {
            counters.computeIfAbsent("millpond.variant.companions.nulled\u0000" + column + '\u0000' + reason,
                    k -> Counter.builder("millpond.variant.companions.nulled")
                            .tags(base.and("column", column, "reason", reason)).register(registry))
                    .increment(rows);
        }
    }

    /** Holder for a gauge value: Micrometer gauges read an object, they do not store a value. */
    static final class GaugeValue {
        private final AtomicLong bits = new AtomicLong(Double.doubleToLongBits(0));

        void set(double v) {
            bits.set(Double.doubleToLongBits(v));
        }

        double get() {
            return Double.longBitsToDouble(bits.get());
        }
    }

    // --- Record handling stages (coercion, keep/drop filters, pre-write sort) ---

    /** A pinned column coerced to {@code targetType} with no value nulled (never together with column_coercion). */
    public void columnsCoerced(String targetType) {
        counter("millpond.columns.coerced", "target_type", targetType).increment();
    }

    /** Rows the keep filter admitted with {@code value} (canonical lower-case text for uuid columns). */
    public void filterMatched(String value, long n) {
        if (n > 0) {
            counter("millpond.filter.matched", "value", value).increment(n);
        }
    }

    /** A flush whose pre-write sort was skipped; {@code n} is its record count. */
    public void sortSkipped(SortSkipReason reason, long n) {
        if (n > 0) {
            counter("millpond.sort.skipped", "reason", reason.label()).increment(n);
        }
    }

    /**
     * {@code millpond_write_in_flight_seconds}: how long the flush being written has been in flight (its whole retry
     * ladder), 0 with none; liveness fails once it passes the longest a write may take.
     */
    public void writeInFlight(DoubleSupplier seconds) {
        Gauge.builder("millpond.write.in.flight.seconds", seconds, DoubleSupplier::getAsDouble).tags(base)
                .strongReference(true).register(registry);
    }

    // ---- librdkafka-equivalent gauges (mapping in dev.millpond.kafka.KafkaClientGauges) ----

    /**
     * {@code millpond_rdkafka_broker_rtt_avg_seconds{broker}}, read from the Kafka client at scrape time. Strong
     * reference: the supplier usually lives nowhere else, and a collected one would read NaN.
     */
    public void rdkafkaBrokerRttAvgSeconds(String broker, DoubleSupplier seconds) {
        Gauge.builder("millpond.rdkafka.broker.rtt.avg.seconds", seconds, DoubleSupplier::getAsDouble)
                .tags(base.and("broker", broker)).strongReference(true).register(registry);
    }

    // ---- Include-values source (millpond_include_values_*): the unlabelled ones exist from the first scrape. ----

    /** {@code millpond_include_values_mode{mode}} = 1: which mode this replica actually runs. */
    public void includeValuesMode(String mode) {
        labelledGauge("millpond.include.values.mode", "mode", mode).set(1);
    }

    /** The gauges every successful poll sets, refused ones included. */
    public void includeValuesPolled(int size, int pendingRemovals, double lastSuccessEpochSeconds) {
        includeValuesGauge("millpond.include.values.size").set(size);
        includeValuesGauge("millpond.include.values.pending.removals").set(pendingRemovals);
        includeValuesGauge("millpond.include.values.last.success.timestamp.seconds").set(lastSuccessEpochSeconds);
    }

    public void includeValuesPollFailed() {
        counters.computeIfAbsent("millpond.include.values.poll.failures",
                k -> Counter.builder(k).tags(base).register(registry)).increment();
    }

    /** {@code reason} = {@code empty} | {@code bulk_removal} | {@code type_flip}. */
    public void includeValuesRefused(String reason) {
        counter("millpond.include.values.refused", "reason", reason).increment();
    }

    /** {@code action} = {@code add} | {@code remove}; {@code n} values applied to the effective set. */
    public void includeValuesChanges(String action, int n) {
        if (n > 0) {
            counter("millpond.include.values.changes", "action", action).increment(n);
        }
    }

    /** Shadow mode only: static values the endpoint does not serve, and served values not in the static list. */
    public void includeValuesShadowDiff(int onlyStatic, int onlyRemote) {
        includeValuesGauge("millpond.include.values.shadow.only.static").set(onlyStatic);
        includeValuesGauge("millpond.include.values.shadow.only.remote").set(onlyRemote);
    }

    public void includeValuesPinned(int pinned) {
        includeValuesGauge("millpond.include.values.pinned").set(pinned);
    }

    /** Pins the endpoint does not serve (both URL modes). */
    public void includeValuesPinnedOnly(int pinnedOnly) {
        includeValuesGauge("millpond.include.values.pinned.only").set(pinnedOnly);
    }

    private GaugeValue includeValuesGauge(String name) {
        return gauges.computeIfAbsent(name, k -> {
            GaugeValue g = new GaugeValue();
            gauge(name, Tags.empty(), g);
            return g;
        });
    }

    // ---- Offsets the consumer moved past without reading them ----

    /**
     * {@code millpond_offsets_skipped_total{partition,reason}}: offsets of {@code partition} the consumer jumped over
     * without the pipeline ever landing their records. Call with 0 for every assigned partition at startup (and for a
     * partition taken up later), so an alert on its increase has a series to compare with from the first scrape.
     */
    public void offsetsSkipped(int partition, OffsetSkipReason reason, long n) {
        String p = Integer.toString(partition);
        counters.computeIfAbsent("millpond.offsets.skipped\u0000" + p + '\u0000' + reason.label(),
                k -> Counter.builder("millpond.offsets.skipped").tags(base.and("partition", p, "reason",
                        reason.label())).register(registry)).increment(Math.max(0, n));
    }

    // ---- Exactly-once into DuckLake (lake-recorded offsets) ----

    /**
     * {@code millpond_replay_skipped_records_total}: records a restart did not consume again because the lake had
     * them already (lake offset − Kafka start position, summed over partitions). Call with 0 at startup so the
     * series exists from the first scrape.
     */
    public void replaySkippedRecords(long n) {
        Counter.builder("millpond.replay.skipped.records").tags(base).register(registry).increment(Math.max(0, n));
    }

    /**
     * {@code millpond_orphaned_uploads_total}: parquet files that failed write attempts uploaded and no snapshot
     * references (left for the maintenance orphan cleanup).
     */
    public void orphanedUploads(long n) {
        Counter.builder("millpond.orphaned.uploads").tags(base).register(registry).increment(Math.max(0, n));
    }

    // ---- hoglake sink ----

    /**
     * {@code millpond_hoglake_files_written_total}: parquet files registered by hoglake commits. Call with 0 when the
     * sink opens so the series exists from the first scrape of a hoglake pod (and never on a DuckLake one).
     */
    public void hoglakeFilesWritten(long n) {
        Counter.builder("millpond.hoglake.files.written").tags(base).register(registry).increment(Math.max(0, n));
    }

    /** {@code millpond_hoglake_commit_replays_total{outcome}}: {@code replayed} or {@code already_published}. */
    public void hoglakeCommitReplay(String outcome) {
        counter("millpond.hoglake.commit.replays", "outcome", outcome).increment();
    }

    /** {@code millpond_hoglake_orphaned_files_total}: uploaded parquet files no commit registered. */
    public void hoglakeOrphanedFiles(long n) {
        Counter.builder("millpond.hoglake.orphaned.files").tags(base).register(registry).increment(Math.max(0, n));
    }
}
