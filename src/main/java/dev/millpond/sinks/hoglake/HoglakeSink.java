package dev.millpond.sinks.hoglake;

import dev.millpond.config.HoglakeConfig;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.WriteFailure;
import dev.millpond.sinks.hoglake.catalog.CatalogFailure;
import dev.millpond.sinks.hoglake.catalog.CatalogReply;
import dev.millpond.sinks.hoglake.catalog.HoglakeCatalogClient;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CatalogInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CommitResult;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWriteException;
import dev.millpond.sinks.hoglake.schema.PayloadColumns;
import dev.millpond.sinks.hoglake.schema.PayloadDrops;
import dev.millpond.sinks.hoglake.schema.RejectsTable;
import dev.millpond.sinks.hoglake.schema.SchemaEvolution;
import dev.millpond.sinks.hoglake.schema.TableResolver;
import org.apache.arrow.memory.BufferAllocator;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Writes flushes into a hoglake table: each flush is uploaded as one parquet file per partition tuple and published
 * by one idempotent commit whose key names the table incarnation and the flush's Kafka offset ranges. The prepared
 * commit is held across retries of the same flush and re-sent unchanged, so a commit whose answer was lost is
 * answered from the server's receipt instead of publishing the rows twice; a key the server already holds for a
 * different request means an earlier process published this flush, and the flush is done. Every upload that ends up
 * registered by no commit is counted as orphaned, with its URI.
 *
 * <p>The records of a flush that could not become rows are kept whole in the {@code _millpond_rejects} table beside
 * it, registered by the same commit (so under the same key): a flush's rows and rejects publish together, once.
 *
 * <p>Hoglake records no Kafka offsets in the lake, so {@link #recordedOffsets} is empty: Kafka's committed offsets
 * decide where to resume. Not thread-safe: one sink per pump thread.
 */
public final class HoglakeSink implements Sink {

    private static final Logger LOG = Logger.getLogger(HoglakeSink.class);
    static final String REPLAYED = "replayed";
    static final String ALREADY_PUBLISHED = "already_published";

    private final HoglakeConfig config;
    private final MillpondMetrics metrics;
    private final HoglakeCatalogClient client;
    private final HoglakeObjectStore store;
    private final TableResolver tables;
    /** Empty when MILLPOND_REJECTS=false: then a flush's rejects are counted and dropped. */
    private final Optional<RejectsTable> rejects;
    private final SchemaEvolution evolution;
    private final FlushPreparation preparation;
    private final OrphanedFiles orphans;
    private final PayloadDrops drops;

    /** The live table as startup or the last flush resolved it; null while it does not exist. */
    private TableInfo table;
    /** The current flush's prepared commit, held across its retries; null when none is outstanding. */
    private PreparedFlush held;

    private HoglakeSink(HoglakeConfig config, MillpondMetrics metrics, HoglakeCatalogClient client,
            HoglakeObjectStore store, String dataPath, List<String> sortBy, boolean keepRejects,
            BufferAllocator memory) {
        this.config = config;
        this.metrics = metrics;
        this.client = client;
        this.store = store;
        this.orphans = new OrphanedFiles(metrics);
        this.tables = new TableResolver(client, config, sortBy);
        this.rejects = keepRejects ? Optional.of(new RejectsTable(client, config.catalog(), config.namespace()))
                : Optional.empty();
        this.evolution = new SchemaEvolution(client, metrics, config);
        this.preparation = new FlushPreparation(store, orphans, metrics, memory, dataPath, config.namespace(),
                config.table(), config.partitionBy(), "millpond/" + config.table());
        this.drops = new PayloadDrops(metrics);
    }

    /** As {@link #open(HoglakeConfig, List, boolean, MillpondMetrics, BufferAllocator)}, keeping rejects. */
    public static HoglakeSink open(HoglakeConfig config, List<String> sortBy, MillpondMetrics metrics,
            BufferAllocator memory) {
        return open(config, sortBy, true, metrics, memory);
    }

    /**
     * Connects the sink: resolves HOGLAKE_CATALOG (creating it when it is missing and HOGLAKE_DATA_PATH is set) and
     * runs the object-store credential probe, so a bad URL, a missing catalog or a missing write grant fails startup
     * before the pod claims readiness. Then reads the table as it is, if it exists, so {@link #liveColumns} is right
     * before the first poll: the width bound counts the columns the table already has. Creating the namespace and the
     * table, and reconciling its layout, wait for the first write.
     *
     * @param sortBy      MILLPOND_SORT_BY: declared as the table's sort order and reconciled like the partition spec
     * @param keepRejects MILLPOND_REJECTS: keep the records that cannot land in {@code _millpond_rejects}
     * @param memory      the sink's Arrow memory: the rows are encoded straight from the flush's own vectors; only
     *                    the rejects are copied into it, a file's worth at a time
     * @throws HoglakeStartupException  the catalog cannot be resolved or created; the message is the line to log
     * @throws ObjectStoreProbeException the probe failed; the message names the marker, catalog, credential source,
     *                                   the S3 error and the setting to look at
     */
    public static HoglakeSink open(HoglakeConfig config, List<String> sortBy, boolean keepRejects,
            MillpondMetrics metrics, BufferAllocator memory) {
        Duration timeout = Duration.ofMillis(Math.round(config.requestTimeoutSeconds() * 1000));
        HoglakeCatalogClient client = new HoglakeCatalogClient(config.url(), timeout);
        HoglakeObjectStore store = null;
        try {
            CatalogInfo catalog = CatalogResolution.resolve(client, config.url(), config.catalog(),
                    config.dataPath());
            store = HoglakeObjectStore.open(config.s3());
            store.probe(catalog.dataPath(), config.catalog());
            metrics.hoglakeFilesWritten(0);
            metrics.hoglakeOrphanedFiles(0);
            LOG.infof("Hoglake catalog resolved: catalog=%s data_path=%s table=%s.%s url=%s", config.catalog(),
                    catalog.dataPath(), config.namespace(), config.table(), config.url());
            HoglakeSink sink = new HoglakeSink(config, metrics, client, store, catalog.dataPath(), sortBy,
                    keepRejects, memory);
            sink.table = sink.existingTable();
            return sink;
        } catch (RuntimeException e) {
            if (store != null) {
                store.close();
            }
            client.close();
            throw e;
        }
    }

    /**
     * Which dependency {@link #open} could not reach, when its failure is an outage worth waiting out: the control
     * plane unreachable or answering 5xx, or the probe's write refused by a connection error or a 5xx. A refusal (a
     * missing catalog, bad keys, a missing bucket or grant, an unknown host) is configuration: empty.
     */
    public static Optional<dev.millpond.sinks.StartupOutage> startupOutage(Throwable failure) {
        if (failure instanceof HoglakeStartupException e) {
            return e.unavailable() ? Optional.of(dev.millpond.sinks.StartupOutage.CATALOG) : Optional.empty();
        }
        if (failure instanceof ObjectStoreProbeException && failure.getCause() != null) {
            Throwable cause = failure.getCause();
            boolean outage = cause instanceof software.amazon.awssdk.awscore.exception.AwsServiceException s3
                    ? s3.statusCode() >= 500
                    : cause instanceof software.amazon.awssdk.core.exception.SdkClientException && transport(cause);
            return outage ? Optional.of(dev.millpond.sinks.StartupOutage.OBJECT_STORE) : Optional.empty();
        }
        return Optional.empty();
    }

    /** A connection refused, reset or timed out beneath the SDK's error (not a credentials or a name problem). */
    private static boolean transport(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.UnknownHostException) {
                return false;
            }
            if (t instanceof java.io.IOException || t.getClass().getSimpleName().contains("Timeout")) {
                return true;
            }
        }
        return false;
    }

    /** The table as it is now, null when it does not exist yet; a failed read fails startup like the catalog's. */
    private TableInfo existingTable() {
        try {
            Optional<TableInfo> live = tables.find();
            live.ifPresent(t -> LOG.infof("Hoglake table %s exists with %d columns", tables.qualified(),
                    t.columns().size()));
            return live.orElse(null);
        } catch (HoglakeWriteException e) {
            throw new HoglakeStartupException("Cannot read hoglake table " + tables.qualified() + " at "
                    + config.url() + ": " + e.getMessage(),
                    HoglakeFailures.classify(e).kind() == WriteFailure.Kind.UNAVAILABLE);
        }
    }

    @Override
    public Optional<Map<Integer, Long>> recordedOffsets(String topic) {
        return Optional.empty();
    }

    @Override
    public long write(FlushBatch batch, int attempt) {
        if (held != null && !held.covers(batch)) {
            orphans.count(held.uris(), "superseded by the next flush before it was published");
            held = null;
        }
        if (held != null) {
            // A retry of the flush whose commit is prepared: send the same request again, never a new one.
            return publish();
        }
        boolean hasRows = batch.rows() > 0 && !batch.batches().isEmpty();
        boolean keptRejects = rejects.isPresent() && !batch.rejects().isEmpty();
        if (!hasRows && !keptRejects) {
            return 0;
        }
        List<PayloadColumns.Sent> sent = List.of();
        Optional<TableInfo> live = Optional.empty();
        if (hasRows) {
            PayloadColumns columns = PayloadColumns.of(batch.schema());
            drops.count(columns);
            if (columns.sent().isEmpty()) {
                LOG.warnf("No writable column in a flush of %d rows; nothing written", batch.rows());
            } else {
                table = tables.resolve(columns.sent());
                table = evolution.evolve(table, columns.sent());
                live = Optional.of(table);
                sent = columns.sent();
            }
        }
        if (live.isEmpty() && !keptRejects) {
            return 0;
        }
        Optional<TableInfo> rejectsTable = keptRejects ? Optional.of(rejects.get().resolve()) : Optional.empty();
        UUID key = batch.ranges().isEmpty()
                // Without offsets there is no flush identity to name; a random key still makes retries idempotent.
                ? UUID.randomUUID()
                : FlushKey.of(config.catalog(), config.namespace(), config.table(), incarnation(live, rejectsTable),
                        batch.ranges());
        long insertedAt = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        Optional<PreparedFlush> prepared = preparation.prepare(batch, sent, live, rejectsTable, key, insertedAt);
        if (prepared.isEmpty()) {
            return 0;
        }
        held = prepared.get();
        return publish();
    }

    /**
     * The incarnation a flush's key names: the data table's, whether or not this flush has rows for it, so a flush
     * rebuilt after a crash gets the same key whichever of its records became rows or rejects the second time. Only a
     * flush of rejects alone before the data table exists names the rejects table's incarnation instead (the data
     * table being created between such a flush and its replay is the one case a replay is not recognised).
     */
    private String incarnation(Optional<TableInfo> live, Optional<TableInfo> rejectsTable) {
        if (live.isPresent()) {
            return live.get().tableUuid();
        }
        Optional<TableInfo> existing = tables.find();
        existing.ifPresent(t -> table = t);
        return existing.map(TableInfo::tableUuid)
                .orElseGet(() -> RejectsTable.NAME + ":" + rejectsTable.orElseThrow().tableUuid());
    }

    /**
     * Sends the held commit. A request sent before may have been applied with its answer lost: the catalog head read
     * just before the resend tells a receipt's answer (a snapshot at or below that head) from a fresh publication.
     */
    private long publish() {
        PreparedFlush flush = held;
        Optional<Long> headBefore = Optional.empty();
        if (flush.sent()) {
            CatalogReply<CatalogInfo> head = client.catalog(config.catalog());
            if (!head.ok()) {
                throw new HoglakeWriteException("reading catalog " + config.catalog() + " before resending flush "
                        + flush.key(), head.failure());
            }
            headBefore = Optional.of(head.value().headSnapshotId());
        }
        flush.markSent();
        CatalogReply<CommitResult> reply = client.commitPrepared(config.catalog(), flush.request());
        if (reply.ok()) {
            held = null;
            metrics.hoglakeFilesWritten(flush.uris().size());
            long snapshot = reply.value().snapshotId();
            if (headBefore.isPresent() && snapshot <= headBefore.get()) {
                metrics.hoglakeCommitReplay(REPLAYED);
                LOG.infof("Flush %s was published by an earlier attempt whose answer was lost (snapshot %d);"
                        + " answered from the receipt, not published again", flush.key(), snapshot);
            }
            return flush.rows();
        }
        CatalogFailure failure = reply.failure();
        if (failure.isIdempotencyKeyReused()) {
            held = null;
            metrics.hoglakeCommitReplay(ALREADY_PUBLISHED);
            LOG.warnf("Flush %s was already published by an earlier process (same key, different upload); not"
                    + " publishing it again", flush.key());
            orphans.count(flush.uris(), "flush " + flush.key() + " was already published");
            return 0;
        }
        if (judged(failure)) {
            // The server judged this request; an identical resend gets the identical answer, so it is dropped.
            held = null;
            orphans.count(flush.uris(), "the commit of flush " + flush.key() + " was refused: " + failure);
            if (failure.isTableRecreated()) {
                table = null;
                LOG.warnf("Hoglake table %s (or its rejects table) was recreated under the same name; the next"
                        + " attempt re-resolves it and prepares the flush again", tables.qualified());
            }
        }
        throw new HoglakeWriteException("publishing flush " + flush.key(), failure);
    }

    /** A refusal the server decided (conflict, validation, expiry, any other 4xx): not a lost or unanswered request. */
    private static boolean judged(CatalogFailure f) {
        if (f.status().isEmpty()) {
            return false;
        }
        int s = f.status().getAsInt();
        return s >= 400 && s < 500 && s != 404 && s != 408 && s != 429;
    }

    @Override
    public WriteFailure classify(Throwable failure) {
        return HoglakeFailures.classify(failure);
    }

    /** Whether flushes keep their rejected records in {@code _millpond_rejects} (MILLPOND_REJECTS). */
    @Override
    public boolean keepsRejects() {
        return rejects.isPresent();
    }

    @Override
    public List<String> liveColumns() {
        TableInfo t = table;
        return t == null ? List.of() : t.columns().stream().map(HoglakeWire.ColumnInfo::name).toList();
    }

    @Override
    public boolean becomesColumn(String name) {
        return PayloadColumns.dropReason(name).isEmpty();
    }

    @Override
    public void close() {
        if (held != null) {
            orphans.count(held.uris(), "flush " + held.key() + " was still unpublished when the sink closed");
            held = null;
        }
        try {
            store.close();
        } finally {
            client.close();
        }
    }
}
