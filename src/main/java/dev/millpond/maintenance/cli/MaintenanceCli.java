package dev.millpond.maintenance.cli;

import dev.millpond.config.CompactionDefaults;
import dev.millpond.config.ConfigException;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.DuckLakeConfig;
import dev.millpond.config.MillpondConfig;
import dev.millpond.kafka.KafkaClients;
import dev.millpond.maintenance.Compaction;
import dev.millpond.maintenance.CompactionOptions;
import dev.millpond.maintenance.CompactionTier;
import dev.millpond.maintenance.InlinedData;
import dev.millpond.maintenance.LakeMaintenance;
import dev.millpond.maintenance.LakeSession;
import dev.millpond.maintenance.MaintenanceSettings;
import dev.millpond.maintenance.OffsetsAudit;
import dev.millpond.maintenance.PushgatewayTiming;
import dev.millpond.maintenance.QueuedFile;
import dev.millpond.maintenance.RejectsReplay;
import dev.millpond.maintenance.ToolProcess;
import dev.millpond.observability.SecretRedactor;
import org.jboss.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code ducklake-maintenance}: the lake upkeep commands for CronJobs and operators, over the same operations the
 * scheduled jobs run. It is a plain {@code main} in the application jar, started by {@code tools/ducklake-maintenance}
 * with the application's class path, rather than Quarkus command mode: the jar's Quarkus entry point must stay the
 * writer, and a one-shot command needs no CDI container, HTTP server or pump. Exit codes as the original: 0 done,
 * 1 failed (including "another run holds the lock", and a destructive run the operator declined), 2 bad arguments.
 * A destructive run prints its target catalog first and, on a terminal, asks before going on ({@link Confirmation}).
 */
@Command(name = "ducklake-maintenance", mixinStandardHelpOptions = true, sortOptions = false,
        description = "DuckLake maintenance operations (catalog from DUCKLAKE_RDS_*, objects from DUCKDB_S3_* and "
                + "DUCKLAKE_DATA_PATH).")
public final class MaintenanceCli {

    private static final Logger LOG = Logger.getLogger(MaintenanceCli.class);

    private final Map<String, String> env;
    private final PrintWriter out;

    @Option(names = "--verbose", description = "Debug logging")
    boolean verbose;

    @Option(names = "--debug", description = "DuckDB HTTP logging (high overhead; DuckDB's enable_http_logging)")
    boolean debug;

    @Option(names = {"-y", "--yes"}, scope = CommandLine.ScopeType.INHERIT,
            description = "Do not ask before a destructive run on a terminal (without a terminal nothing is asked)")
    boolean yes;

    public MaintenanceCli(Map<String, String> env, PrintWriter out) {
        this.env = env;
        this.out = out;
    }

    public static void main(String[] args) {
        ToolProcess.run("ducklake-maintenance", env -> run(env, new PrintWriter(System.out, true), args));
    }

    /** Runs one command and returns its exit code (the tests call this in-process). */
    public static int run(Map<String, String> env, PrintWriter out, String... args) {
        return run(env, out, new PrintWriter(System.err, true), args);
    }

    /** As {@link #run(Map, PrintWriter, String...)}, with the errors written to {@code err}. */
    public static int run(Map<String, String> env, PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new MaintenanceCli(env, out));
        cli.setOut(out);
        cli.setErr(err);
        SecretRedactor redactor = SecretRedactor.fromEnvironment(env);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println(redactor.redact("ducklake-maintenance "
                    + parseResult.subcommand().commandSpec().name() + " failed: " + e.getMessage()));
            return 1;
        });
        return cli.execute(args);
    }

    private interface Operation<T> {
        T run(LakeMaintenance maintenance, MaintenanceSettings settings) throws Exception;
    }

    private <T> int operate(String name, boolean destructive, Operation<T> operation) throws Exception {
        if (verbose) {
            java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
            root.setLevel(java.util.logging.Level.FINE);
            for (java.util.logging.Handler h : root.getHandlers()) {
                h.setLevel(java.util.logging.Level.FINE);
            }
        }
        MaintenanceSettings settings = MaintenanceSettings.fromEnvironment(env);
        LOG.infof("millpond %s (maintenance): %s", version(), name);
        if (destructive) {
            out.println(settings.describeTarget());
            Optional<java.io.Console> terminal = yes ? Optional.empty() : Confirmation.terminal();
            if (terminal.isPresent() && !Confirmation.ask(terminal.get())) {
                out.println("Aborted: " + name + " changed nothing.");
                return 1;
            }
        }
        PushgatewayTiming timing = PushgatewayTiming.start(name, env);
        try (LakeSession session = LakeSession.open(settings, name)) {
            if (debug) {
                try (java.sql.Statement s = session.duck().createStatement()) {
                    s.execute("SET enable_http_logging = true");
                }
            }
            T result = operation.run(new LakeMaintenance(session), settings);
            timing.finish(true, result instanceof Compaction.Result c ? Optional.of(c) : Optional.empty());
            return 0;
        } catch (Exception e) {
            timing.finish(false, Optional.empty());
            throw e;
        }
    }

    private int days(int days) {
        if (days < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--days must be >= 1");
        }
        return days;
    }

    @Command(name = "expire", description = "Expire snapshots older than N days (DuckLake's expiry)")
    int expire(@Option(names = "--days", defaultValue = "7") int days, @Option(names = "--dry-run") boolean dryRun)
            throws Exception {
        int d = days(days);
        return operate("expire", !dryRun, (m, s) -> m.expire(d, dryRun));
    }

    @Command(name = "expire-snapshots", description = "Postgres-native snapshot expiry in batches")
    int expireSnapshots(@Option(names = "--days", defaultValue = "7") int days,
            @Option(names = "--batch-size", defaultValue = "1000") int batchSize,
            @Option(names = "--num-batches") Integer numBatches,
            @Option(names = "--dry-run") boolean dryRun) throws Exception {
        if (batchSize < 1 || batchSize > LakeMaintenance.MAX_EXPIRE_BATCH_SIZE) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--batch-size must be between 1 and "
                    + LakeMaintenance.MAX_EXPIRE_BATCH_SIZE);
        }
        if (numBatches != null && numBatches < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--num-batches must be >= 1");
        }
        int d = days(days);
        return operate("expire-snapshots", !dryRun, (m, s) -> m.expireSnapshots(d, batchSize, numBatches, dryRun));
    }

    @Command(name = "cleanup", description = "Delete files scheduled for deletion more than N days ago")
    int cleanup(@Option(names = "--days", defaultValue = "1") int days, @Option(names = "--dry-run") boolean dryRun)
            throws Exception {
        int d = days(days);
        return operate("cleanup", !dryRun, (m, s) -> m.cleanup(d, dryRun));
    }

    @Command(name = "cleanup-all", description = "Delete all files scheduled for deletion (no dry run: there is no "
            + "preview form; use cleanup --dry-run or fsck --dry-run)")
    int cleanupAll() throws Exception {
        return operate("cleanup-all", true, (m, s) -> m.cleanupAll());
    }

    @Command(name = "maintain", description = "expire + cleanup")
    int maintain(@Option(names = "--days", defaultValue = "7") int days, @Option(names = "--dry-run") boolean dryRun)
            throws Exception {
        int d = days(days);
        return operate("maintain", !dryRun, (m, s) -> {
            m.maintain(d, dryRun);
            return null;
        });
    }

    @Command(name = "checkpoint", description = "DuckLake CHECKPOINT (merge + expire + cleanup)")
    int checkpoint() throws Exception {
        return operate("checkpoint", true, (m, s) -> {
            m.checkpoint();
            return null;
        });
    }

    @Command(name = "dedup-deletions", description = "Drop duplicate paths from the deletion queue")
    int dedupDeletions(@Option(names = "--dry-run") boolean dryRun) throws Exception {
        return operate("dedup-deletions", !dryRun, (m, s) -> m.dedupDeletions(dryRun));
    }

    @Command(name = "purge-orphan-stats", description = "Delete the global stats rows of dropped tables")
    int purgeOrphanStats(@Option(names = "--dry-run") boolean dryRun) throws Exception {
        return operate("purge-orphan-stats", !dryRun, (m, s) -> m.purgeOrphanStats(dryRun));
    }

    @Command(name = "repair-partition-values", description = "Rewrite missing or wrong partition values of live "
            + "data files from the key=value segments of their paths (one line per file on stdout: "
            + "data_file_id<TAB>table<TAB>path<TAB>what was recorded -> what the path says)")
    int repairPartitionValues(@Option(names = "--dry-run") boolean dryRun) throws Exception {
        return operate("repair-partition-values", !dryRun, (m, s) -> {
            var findings = m.repairPartitionValues(dryRun);
            findings.forEach(out::println);
            long repairable = findings.stream().filter(f -> f.repairable()).count();
            out.println("repair-partition-values: " + repairable + " file(s) " + (dryRun ? "to repair" : "repaired")
                    + ", " + (findings.size() - repairable) + " left alone");
            return findings;
        });
    }

    @Command(name = "find-orphans", description = "List deletion-queue rows whose object no longer exists "
            + "(data_file_id<TAB>path on stdout)")
    int findOrphans() throws Exception {
        return operate("find-orphans", false, (m, s) -> {
            for (QueuedFile orphan : m.findOrphans()) {
                out.println(orphan.dataFileId() + "\t" + orphan.storedPath());
            }
            return null;
        });
    }

    @Command(name = "heal-orphans", description = "Remove deletion-queue rows whose object no longer exists "
            + "(safety gates B1, B3)")
    int healOrphans(@Option(names = "--dry-run") boolean dryRun) throws Exception {
        return operate("heal-orphans", !dryRun, (m, s) -> m.healOrphans(dryRun));
    }

    @Command(name = "cleanup-all-safe", description = "dedup-deletions + heal-orphans + cleanup-all until clean")
    int cleanupAllSafe(@Option(names = "--max-iterations", defaultValue = "10") int maxIterations) throws Exception {
        positive("--max-iterations", maxIterations);
        return operate("cleanup-all-safe", true, (m, s) -> m.cleanupAllSafe(maxIterations));
    }

    @Command(name = "fsck", description = "cleanup-all-safe + delete objects no catalog row references")
    int fsck(@Option(names = "--dry-run") boolean dryRun,
            @Option(names = "--max-iterations", defaultValue = "10") int maxIterations) throws Exception {
        positive("--max-iterations", maxIterations);
        return operate("fsck", !dryRun, (m, s) -> {
            m.fsck(dryRun, maxIterations);
            return null;
        });
    }

    @Command(name = "orphans", description = "Delete objects under the data path that no catalog row references")
    int orphans(@Option(names = "--dry-run") boolean dryRun) throws Exception {
        return operate("orphans", !dryRun, (m, s) -> m.orphans(dryRun));
    }

    @Command(name = "ensure-indexes", description = "Create the catalog indexes maintenance and commits need")
    int ensureIndexes(@Option(names = "--dry-run") boolean dryRun) throws Exception {
        return operate("ensure-indexes", !dryRun, (m, s) -> m.ensureIndexes(dryRun));
    }

    @Command(name = "compact", description = "Tiered compaction: tier 1 [0, 1 MiB) -> ~5 MiB, tier 2 [1, 10 MiB) -> "
            + "~32 MiB, tier 3 [10, 64 MiB) -> ~128 MiB")
    int compact(@Option(names = "--tier", required = true) int tier,
            @Option(names = "--table", defaultValue = "") String table,
            @Option(names = "--dry-run") boolean dryRun,
            @Option(names = "--threads") Integer threads,
            @Option(names = "--memory-limit") String memoryLimit,
            @Option(names = "--max-compacted-files") Integer maxCompactedFiles,
            @Option(names = "--max-outputs-per-call") Integer maxOutputsPerCall) throws Exception {
        if (tier < 1 || tier > 3) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--tier must be 1, 2 or 3");
        }
        CompactionDefaults defaults;
        try {
            defaults = CompactionDefaults.fromEnvironment(env);
        } catch (ConfigException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
        }
        CompactionOptions options = new CompactionOptions(CompactionTier.of(tier),
                table.isBlank() ? Optional.empty() : Optional.of(table), dryRun,
                positive("--threads", threads != null ? threads : defaults.threads()),
                memoryLimit != null ? memoryLimit : defaults.memoryLimit(),
                positive("--max-compacted-files", maxCompactedFiles != null ? maxCompactedFiles
                        : defaults.maxCompactedFiles()),
                maxOutputsPerCall != null ? OptionalInt.of(positive("--max-outputs-per-call", maxOutputsPerCall))
                        : defaults.maxOutputsPerCall().isPresent()
                        ? OptionalInt.of(positive("COMPACTION_MAX_OUTPUTS_PER_CALL",
                        defaults.maxOutputsPerCall().getAsInt())) : OptionalInt.empty());
        return operate("compact", !dryRun, (m, s) -> m.compact(options));
    }

    @Command(name = "compact-probe", description = "Merge a few adjacent files of one table")
    int compactProbe(@Option(names = "--table", required = true) String table,
            @Option(names = "--max-compacted-files", defaultValue = "2") int maxCompactedFiles) throws Exception {
        positive("--max-compacted-files", maxCompactedFiles);
        return operate("compact-probe", true, (m, s) -> m.compactProbe(table, maxCompactedFiles));
    }

    @Command(name = "flush-inlined", description = "Write the rows DuckLake inlined into the catalog (inserts of up to "
            + "data_inlining_row_limit rows) out to parquet, table by table; prints each table's inlined rows and "
            + "catalog tables before and after. Exits 1 if a table's flush failed (its rows stay in the catalog).")
    int flushInlined(@Option(names = "--table", defaultValue = "") String table,
            @Option(names = "--dry-run") boolean dryRun) throws Exception {
        Optional<String> only = table.isBlank() ? Optional.empty() : Optional.of(table);
        return operate("flush-inlined", !dryRun, (m, s) -> {
            InlinedData.Result result = m.flushInlined(only, dryRun);
            result.after().forEach(out::println);
            long before = result.before().stream().mapToLong(InlinedData.TableInlining::rows).sum();
            out.println("flush-inlined: " + (dryRun ? before + " inlined row(s) would be flushed"
                    : result.rowsFlushed() + " row(s) flushed to parquet")
                    + " (" + result.before().size() + " table(s) with inlined data)");
            if (!result.failed().isEmpty()) {
                throw new java.sql.SQLException("the flush of " + result.failed().size() + " table(s) failed: "
                        + String.join(", ", result.failed()) + " (their inlined rows stay in the catalog)");
            }
            return result;
        });
    }

    @Command(name = "replay-rejects", description = "Run the pipeline's kept rejects (_millpond_rejects) again through "
            + "its current settings into its table (reads the pipeline's configuration: KAFKA_*, DUCKLAKE_*, "
            + "MILLPOND_*). Each batch is one DuckLake transaction: the rows land and their rejects go, a record that "
            + "fails again stays a reject with its new reason. Safe to kill and run again.")
    int replayRejects(@Option(names = "--reason", description = "only rejects with this reason (json_parse, "
                    + "column_limit)") String reason,
            @Option(names = "--since", description = "only rejects kept at or after this time (2026-05-01, "
                    + "2026-05-01T12:00:00Z, ...; UTC unless an offset is given)") String since,
            @Option(names = "--batch-size", defaultValue = "1000") int batchSize,
            @Option(names = "--dry-run") boolean dryRun) throws Exception {
        if (batchSize < 1 || batchSize > RejectsReplay.MAX_BATCH_SIZE) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--batch-size must be between 1 and "
                    + RejectsReplay.MAX_BATCH_SIZE);
        }
        RejectsReplay.Options options = new RejectsReplay.Options(Optional.ofNullable(reason).filter(r -> !r.isBlank()),
                Optional.ofNullable(since).map(this::instant), batchSize, dryRun);
        MillpondConfig config = ConfigLoader.load(env);
        return operate("replay-rejects", !dryRun, (m, s) -> {
            RejectsReplay.Result result = m.replayRejects(config, env, options);
            out.println("replay-rejects: " + RejectsReplay.summary(result, dryRun));
            if (result.unwritten() > 0) {
                throw new java.sql.SQLException(result.unwritten() + " record(s) did not land; they stay rejects");
            }
            return result;
        });
    }

    /** A moment as an operator writes it: an instant, a date-time with or without an offset (UTC), or a date. */
    private Instant instant(String text) {
        String t = text.strip();
        try {
            return OffsetDateTime.parse(t.replace(' ', 'T')).toInstant();
        } catch (DateTimeParseException e) {
            // not with an offset
        }
        try {
            return LocalDateTime.parse(t.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            // not a date-time
        }
        try {
            return LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--since must be a date or a date-time "
                    + "(2026-05-01, 2026-05-01T12:00:00Z), got '" + text + "'");
        }
    }

    @Command(name = "audit", description = "Check the pipeline's offsets in the lake (_millpond_offsets) against "
            + "the topic: covered ranges, gaps and overlaps between flushes, lag, offsets lost to retention. Reads the "
            + "pipeline's own configuration (KAFKA_*, DUCKLAKE_*, GROUP_ID); exits 1 on any finding.")
    int audit() throws Exception {
        MillpondConfig config = ConfigLoader.load(env);
        DuckLakeConfig lake = config.ducklake();
        OffsetsAudit audit = new OffsetsAudit(lake.schema(), lake.table(), config.groupId(), config.topic());
        MaintenanceSettings settings = MaintenanceSettings.fromEnvironment(env);
        PushgatewayTiming timing = PushgatewayTiming.start("audit", env);
        OffsetsAudit.Report report;
        try (LakeSession session = LakeSession.open(settings, "audit")) {
            report = audit.run(session.duck(), KafkaClients.adminProperties(config.kafka()),
                    KafkaClients.consumerProperties(config.kafka(), 500));
        } catch (Exception e) {
            timing.finish(false, Optional.empty());
            throw e;
        }
        report.lines().forEach(out::println);
        timing.finish(true, Optional.empty());
        return report.clean() ? 0 : 1;
    }

    private static String version() {
        String v = MaintenanceCli.class.getPackage().getImplementationVersion();
        return v == null ? "(development build)" : v;
    }

    private int positive(String name, int value) {
        if (value < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), name + " must be >= 1, got " + value);
        }
        return value;
    }
}
