package dev.millpond.maintenance;

import dev.millpond.app.SinkFactory;
import dev.millpond.config.Destination;
import dev.millpond.config.MemoryLimit;
import dev.millpond.config.MillpondConfig;
import dev.millpond.convert.BatchUnifier;
import dev.millpond.convert.JsonToArrow;
import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.includevalues.IncludeValuesSource;
import dev.millpond.memory.ContainerMemory;
import dev.millpond.memory.MemoryBudget;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.pump.ColumnBudget;
import dev.millpond.pump.ReplayFlushes;
import dev.millpond.sinks.RejectedRecord;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.StoredReject;
import dev.millpond.stages.RecordStages;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.jboss.logging.Logger;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code replay-rejects}: the pipeline's kept rejects run again through its current settings (after the width bound
 * was raised, a typed pin fixed, …) into its table. The records go through the writer's own steps
 * ({@link ReplayFlushes}) and its own sink, configured from the same environment, batch by batch; each batch is one
 * DuckLake transaction that inserts the rows, removes the rejects-table rows they came from, and stores the records
 * that fail again with their new reason (their rows replaced). So a record is in the table or in the rejects table,
 * once, whenever the command is killed and however often it is run again; the pipeline's lake offsets are not
 * touched. Records the pipeline now drops by its own rules (a keep or drop filter, no writable column) leave the
 * rejects table as the writer would have dropped them; a dry run says how many. A reject whose value was cut
 * (MILLPOND_REJECTS_MAX_VALUE_BYTES, or an older row whose value is shorter than its length) is not the record, so it
 * is left alone.
 */
public final class RejectsReplay {

    private static final Logger LOG = Logger.getLogger(RejectsReplay.class);
    /** The rejects table's name (the sink's own constant is package-private to it). */
    static final String TABLE = "_millpond_rejects";
    public static final int MAX_BATCH_SIZE = 10_000;

    /**
     * @param reason    only rejects with this reason
     * @param since     only rejects kept at or after this time
     * @param batchSize records per transaction, at most (and at most a sixteenth of the heap, up to 16 MiB, of values)
     */
    public record Options(Optional<String> reason, Optional<Instant> since, int batchSize, boolean dryRun) {
    }

    /**
     * @param replayed      records run again (each counted once, also if it was kept twice)
     * @param landed        of those, rows now in the table
     * @param rejectedAgain of those, rejected again, by new reason
     * @param unwritten     of those, records whose batch did not commit (they stay rejects as they were)
     * @param truncated     rejects left alone because their value was cut
     */
    public record Result(long replayed, long landed, Map<String, Long> rejectedAgain, long unwritten, long truncated,
                         int batches) {

        public long dropped() {
            return replayed - landed - rejectedAgain.values().stream().mapToLong(Long::longValue).sum() - unwritten;
        }
    }

    private final LakeSession session;
    private final MillpondConfig config;
    private final Map<String, String> env;
    private final String qualified;

    public RejectsReplay(LakeSession session, MillpondConfig config, Map<String, String> env) {
        this.session = session;
        this.config = config;
        this.env = env;
        this.qualified = "lake." + DuckLakeSql.ident(config.ducklake().schema()) + "." + DuckLakeSql.ident(TABLE);
    }

    /** Key of the next record in replay order: the rejects are read in (topic, partition, offset) order. */
    private record Key(String topic, int partition, long offset) {
    }

    public Result run(Options o) throws Exception {
        if (config.destination() != Destination.DUCKLAKE) {
            throw new IllegalArgumentException("replay-rejects replays into a DuckLake table; MILLPOND_DESTINATION is "
                    + config.destination().name().toLowerCase(java.util.Locale.ROOT));
        }
        if (!config.landing().rejects()) {
            throw new IllegalArgumentException("replay-rejects needs MILLPOND_REJECTS=true: a record that fails again "
                    + "must stay a reject");
        }
        if (!o.dryRun()) {
            session.lock();
        }
        if (LakeSession.queryLong(session.duck(), "SELECT count(*) FROM information_schema.tables WHERE table_catalog "
                + "= 'lake' AND table_schema = " + DuckLakeSql.literal(config.ducklake().schema()) + " AND table_name = "
                + DuckLakeSql.literal(TABLE)) == 0) {
            LOG.infof("replay-rejects: %s does not exist; nothing to replay", qualified);
            return new Result(0, 0, Map.of(), 0, 0, 0);
        }
        long startMicros = LakeSession.queryLong(session.duck(), "SELECT epoch_us(now())");
        String table = config.ducklake().table();
        long truncated = LakeSession.queryLong(session.duck(), "SELECT count(*) FROM " + qualified + " WHERE "
                + filters(o, startMicros) + " AND value_truncated");
        LOG.infof("replay-rejects: table %s, rejects of %s%s%s kept before the start of this run, batches of %d "
                + "(dry_run=%s)", qualified, table, o.reason().map(r -> " with reason " + r).orElse(""),
                o.since().map(s -> " since " + s).orElse(""), o.batchSize(), o.dryRun());
        MillpondMetrics metrics = new MillpondMetrics(new SimpleMeterRegistry(), config.pipelineLabel(),
                config.brokerSource());
        // As the writer plans it; a batch holds at most what the writer's pending rejects may (1-16 MiB of values).
        MemoryBudget budget = MemoryBudget.plan(ContainerMemory.detect(MemoryLimit.fromEnvironment(env)),
                Runtime.getRuntime().maxMemory(),
                config.flushSizeBytes(), Runtime.getRuntime().availableProcessors(), false,
                config.variantCompanions());
        Tally tally = new Tally();
        tally.truncated = truncated;
        try (BufferAllocator allocator = new RootAllocator();
             IncludeValuesSource include = IncludeValuesSource.create(config.includeValues(), metrics);
             Sink sink = SinkFactory.forDestination(config, extensionDirectory()).open(metrics, allocator, budget)) {
            // The keep filter's allowlist as the writer has it now (authoritative mode waits for the endpoint).
            include.start();
            RecordStages stages = include.effectiveSet()
                    .map(set -> new RecordStages(config.recordHandling(), set, metrics, allocator))
                    .orElseGet(() -> new RecordStages(config.recordHandling(), metrics, allocator));
            ReplayFlushes flushes = new ReplayFlushes(config.topic(), new JsonToArrow(allocator),
                    new BatchUnifier(allocator), stages, new ColumnBudget(config.landing().maxTableColumns(),
                    config.landing().maxNewColumnsPerFlush(), allocator, sink::becomesColumn), sink, metrics);
            List<String> imagined = new ArrayList<>(sink.liveColumns());
            Optional<Key> after = Optional.empty();
            List<Key> keys;
            while (!(keys = nextKeys(o, startMicros, after, budget.rejectsPendingBytes())).isEmpty()) {
                after = Optional.of(keys.get(keys.size() - 1));
                List<ReplayFlushes.Replayed> records = fetch(o, startMicros, keys);
                tally.truncated += keys.size() - records.size();
                if (records.isEmpty()) {
                    continue;
                }
                tally.batches++;
                tally.replayed += records.size();
                try (ReplayFlushes.Flush flush = flushes.prepare(records)) {
                    if (o.dryRun()) {
                        imagined.addAll(flush.columns());
                        flush.landed(imagined);
                        tally.counted(flush, flush.batch().rows(), records, keys, true);
                    } else {
                        write(sink, flush, records, keys, tally);
                    }
                }
            }
        }
        Result result = new Result(tally.replayed, tally.landed, tally.again, tally.unwritten, tally.truncated,
                tally.batches);
        LOG.infof("replay-rejects: %s", summary(result, o.dryRun()));
        return result;
    }

    /** One batch in one transaction through the writer's sink; a batch the sink did not land stays as it was. */
    private void write(Sink sink, ReplayFlushes.Flush flush, List<ReplayFlushes.Replayed> records, List<Key> keys,
                       Tally tally) throws Exception {
        LOG.infof("replay-rejects: batch %d: writing %d record(s) (%s)", tally.batches, records.size(), describe(keys));
        long rows = sink.write(flush.batch(), 1);
        if (stillKept(flush.batch().replayed()) > 0) {
            // The sink wrote nothing of it (no column of its rows could be added): as it was.
            LOG.warnf("replay-rejects: batch %d (%d record(s), %s) did not land; they stay rejects", tally.batches,
                    records.size(), describe(keys));
            tally.unwritten += records.size();
            return;
        }
        flush.landed(sink.liveColumns());
        tally.counted(flush, rows, records, keys, false);
    }

    /** What the run has done so far. */
    private static final class Tally {
        long replayed;
        long landed;
        long unwritten;
        long truncated;
        int batches;
        final Map<String, Long> again = new TreeMap<>();

        void counted(ReplayFlushes.Flush flush, long rows, List<ReplayFlushes.Replayed> records, List<Key> keys,
                     boolean dryRun) {
            landed += rows;
            for (RejectedRecord r : flush.rejectedAgain()) {
                again.merge(r.reason(), 1L, Long::sum);
            }
            LOG.infof("replay-rejects: batch %d: %d record(s) (%s): %d row(s) %s, %d rejected again", batches,
                    records.size(), describe(keys), rows, dryRun ? "would land" : "landed",
                    flush.rejectedAgain().size());
        }
    }

    /** The run's line: what was replayed and where each record went. */
    public static String summary(Result r, boolean dryRun) {
        String verb = dryRun ? "would be" : "were";
        String reasons = r.rejectedAgain().entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
        return r.replayed() + " record(s) " + (dryRun ? "to replay" : "replayed") + " in " + r.batches()
                + " batch(es): " + r.landed() + " " + verb + " written to the table, "
                + r.rejectedAgain().values().stream().mapToLong(Long::longValue).sum() + " " + verb
                + " rejected again" + (reasons.isEmpty() ? "" : " (" + reasons + ")") + ", " + r.dropped() + " "
                + verb + " dropped by the pipeline's rules (keep/drop filters, no writable column)"
                + (r.unwritten() > 0 ? ", " + r.unwritten() + " did not land and stay rejects" : "")
                + (r.truncated() > 0 ? "; " + r.truncated() + " reject(s) with a cut value left alone" : "");
    }

    private String extensionDirectory() {
        return session.settings().attachment().extensionDirectory().toString();
    }

    /** The rows of this pipeline's table the options select, kept before this run started. */
    private String filters(Options o, long startMicros) {
        return "table_name = " + DuckLakeSql.literal(config.ducklake().table()) + " AND epoch_us(rejected_at) < "
                + startMicros + o.reason().map(r -> " AND reason = " + DuckLakeSql.literal(r)).orElse("")
                + o.since().map(s -> " AND epoch_us(rejected_at) >= " + ChronoUnit.MICROS.between(Instant.EPOCH, s))
                .orElse("");
    }

    /**
     * The next records after {@code after}, at most {@code batchSize} and {@code batchBytes} of values (one record
     * always), by key: a record kept more than once is one key.
     */
    private List<Key> nextKeys(Options o, long startMicros, Optional<Key> after, long batchBytes)
            throws SQLException {
        String cursor = after.map(k -> " AND (topic > " + DuckLakeSql.literal(k.topic()) + " OR (topic = "
                + DuckLakeSql.literal(k.topic()) + " AND (kafka_partition > " + k.partition() + " OR (kafka_partition = "
                + k.partition() + " AND kafka_offset > " + k.offset() + "))))").orElse("");
        List<Key> keys = new ArrayList<>();
        long bytes = 0;
        try (PreparedStatement ps = session.duck().prepareStatement("SELECT topic, kafka_partition, kafka_offset, "
                + "max(value_length) FROM " + qualified + " WHERE " + filters(o, startMicros)
                + " AND value_truncated IS NOT TRUE" + cursor + " GROUP BY ALL ORDER BY ALL LIMIT " + o.batchSize());
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                bytes += rs.getLong(4);
                if (!keys.isEmpty() && bytes > batchBytes) {
                    break;
                }
                keys.add(new Key(rs.getString(1), rs.getInt(2), rs.getLong(3)));
            }
        }
        return keys;
    }

    /**
     * Every selected row of {@code keys}, grouped per record (the first row's value is the record; every row is
     * replaced). A record whose value was cut is skipped: it is not the record.
     */
    private List<ReplayFlushes.Replayed> fetch(Options o, long startMicros, List<Key> keys) throws SQLException {
        Map<Key, List<StoredReject>> rows = new LinkedHashMap<>();
        Map<Key, RejectedRecord> records = new LinkedHashMap<>();
        try (PreparedStatement ps = session.duck().prepareStatement("SELECT topic, kafka_partition, kafka_offset, "
                + "epoch_ms(kafka_timestamp), epoch_us(rejected_at), reason, error, value, value_length FROM "
                + qualified + " WHERE " + filters(o, startMicros) + " AND value_truncated IS NOT TRUE AND ("
                + keyPredicate(keys) + ") ORDER BY topic, kafka_partition, kafka_offset, rejected_at");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Key key = new Key(rs.getString(1), rs.getInt(2), rs.getLong(3));
                long timestamp = rs.getLong(4);
                if (rs.wasNull()) {
                    timestamp = -1;
                }
                rows.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(new StoredReject(key.topic(), key.partition(), key.offset(), rs.getLong(5)));
                byte[] value = rs.getBytes(8);
                long length = rs.getLong(9);
                if (value != null && value.length == length && !records.containsKey(key)) {
                    records.put(key, new RejectedRecord(key.topic(), key.partition(), key.offset(), timestamp,
                            rs.getString(6), String.valueOf(rs.getString(7)), value, value.length));
                }
            }
        }
        List<ReplayFlushes.Replayed> out = new ArrayList<>();
        records.forEach((key, record) -> out.add(new ReplayFlushes.Replayed(record, rows.get(key))));
        return out;
    }

    private static String keyPredicate(List<Key> keys) {
        Map<String, List<Key>> byPartition = keys.stream().collect(Collectors.groupingBy(
                k -> k.topic() + "\u0000" + k.partition(), LinkedHashMap::new, Collectors.toList()));
        return byPartition.values().stream().map(ks -> "(topic = " + DuckLakeSql.literal(ks.get(0).topic())
                + " AND kafka_partition = " + ks.get(0).partition() + " AND kafka_offset IN ("
                + ks.stream().map(k -> Long.toString(k.offset())).collect(Collectors.joining(", ")) + "))")
                .collect(Collectors.joining(" OR "));
    }

    /** How many of {@code rows} are still in the rejects table (none once their batch committed). */
    private long stillKept(List<StoredReject> rows) throws SQLException {
        if (rows.isEmpty()) {
            return 0;
        }
        String match = rows.stream().map(r -> "(topic = " + DuckLakeSql.literal(r.topic()) + " AND kafka_partition = "
                + r.partition() + " AND kafka_offset = " + r.offset() + " AND epoch_us(rejected_at) = "
                + r.rejectedAtMicros() + ")").collect(Collectors.joining(" OR "));
        return LakeSession.queryLong(session.duck(), "SELECT count(*) FROM " + qualified + " WHERE table_name = "
                + DuckLakeSql.literal(config.ducklake().table()) + " AND (" + match + ")");
    }

    private static String describe(List<Key> keys) {
        Key first = keys.get(0);
        Key last = keys.get(keys.size() - 1);
        return first.topic() + "/" + first.partition() + "@" + first.offset() + " .. " + last.topic() + "/"
                + last.partition() + "@" + last.offset();
    }
}
