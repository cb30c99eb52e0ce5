package dev.millpond.maintenance;

import dev.millpond.config.ProcessEnvironment;
import dev.millpond.ducklake.LakeAttachment;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The maintenance jobs as scheduled beans inside the writer, each off unless its schedule is configured: an interval
 * ({@code MILLPOND_MAINTENANCE_<JOB>_EVERY}, e.g. {@code 15m}) or a Quartz cron expression
 * ({@code MILLPOND_MAINTENANCE_<JOB>_CRON}), jobs {@code COMPACT_TIER1}, {@code COMPACT_TIER2}, {@code COMPACT_TIER3},
 * {@code MAINTAIN}, {@code FLUSH_INLINED}. They run on the scheduler's worker threads, never on the pump thread, each
 * with its own DuckDB connection and catalog session, so a job never blocks a flush (they meet only as two DuckLake
 * commits, which DuckLake's commit retry serialises). Every pod of a StatefulSet schedules the same jobs; the
 * maintenance advisory lock lets one of them run each time and the others skip.
 */
@ApplicationScoped
public class ScheduledMaintenance {

    private static final Logger LOG = Logger.getLogger(ScheduledMaintenance.class);

    @ConfigProperty(name = "millpond.duckdb.extension-dir", defaultValue = LakeAttachment.DEFAULT_EXTENSION_DIR)
    String extensionDirectory;

    /** Snapshot age for the maintain job (expire, then clean up files queued that long ago). */
    @ConfigProperty(name = "millpond.maintenance.days", defaultValue = "7")
    int days;

    /**
     * DuckDB limits for a compaction or an inlined-data flush inside the writer pod: it shares the pod's memory limit
     * with the pump, so the defaults are far below the CronJob's 2 threads / 4GB.
     */
    @ConfigProperty(name = "millpond.maintenance.memory-limit", defaultValue = "512MB")
    String memoryLimit;

    @ConfigProperty(name = "millpond.maintenance.threads", defaultValue = "1")
    int threads;

    @ConfigProperty(name = "millpond.maintenance.max-compacted-files", defaultValue = "80")
    int maxCompactedFiles;

    /** A job's interval and cron triggers must not overlap each other either. */
    private final Map<String, AtomicBoolean> running = new ConcurrentHashMap<>();

    @Scheduled(identity = "maintenance-compact-tier1-every", every = "${millpond.maintenance.compact-tier1.every:off}",
            concurrentExecution = ConcurrentExecution.SKIP)
    @Scheduled(identity = "maintenance-compact-tier1-cron", cron = "${millpond.maintenance.compact-tier1.cron:off}",
            concurrentExecution = ConcurrentExecution.SKIP)
    void compactTier1() {
        compact(CompactionTier.ONE);
    }

    @Scheduled(identity = "maintenance-compact-tier2-every", every = "${millpond.maintenance.compact-tier2.every:off}",
            concurrentExecution = ConcurrentExecution.SKIP)
    @Scheduled(identity = "maintenance-compact-tier2-cron", cron = "${millpond.maintenance.compact-tier2.cron:off}",
            concurrentExecution = ConcurrentExecution.SKIP)
    void compactTier2() {
        compact(CompactionTier.TWO);
    }

    @Scheduled(identity = "maintenance-compact-tier3-every", every = "${millpond.maintenance.compact-tier3.every:off}",
            concurrentExecution = ConcurrentExecution.SKIP)
    @Scheduled(identity = "maintenance-compact-tier3-cron", cron = "${millpond.maintenance.compact-tier3.cron:off}",
            concurrentExecution = ConcurrentExecution.SKIP)
    void compactTier3() {
        compact(CompactionTier.THREE);
    }

    @Scheduled(identity = "maintenance-maintain-every", every = "${millpond.maintenance.maintain.every:off}",
            concurrentExecution = ConcurrentExecution.SKIP)
    @Scheduled(identity = "maintenance-maintain-cron", cron = "${millpond.maintenance.maintain.cron:off}",
            concurrentExecution = ConcurrentExecution.SKIP)
    void maintain() {
        run("maintain", m -> {
            m.maintain(days, false);
            return null;
        });
    }

    /**
     * Every table's inlined rows out to parquet. With a quiet pipeline each flush (and its offsets rows) is an inlined
     * insert, so without this the catalog only ever grows; see {@link InlinedData}.
     */
    @Scheduled(identity = "maintenance-flush-inlined-every", every = "${millpond.maintenance.flush-inlined.every:off}",
            concurrentExecution = ConcurrentExecution.SKIP)
    @Scheduled(identity = "maintenance-flush-inlined-cron", cron = "${millpond.maintenance.flush-inlined.cron:off}",
            concurrentExecution = ConcurrentExecution.SKIP)
    void flushInlined() {
        run("flush-inlined", m -> {
            m.limitDuckDb(threads, memoryLimit);
            InlinedData.Result result = m.flushInlined(Optional.empty(), false);
            if (!result.failed().isEmpty()) {
                throw new java.sql.SQLException("the flush of " + String.join(", ", result.failed()) + " failed");
            }
            return result;
        });
    }

    private void compact(CompactionTier tier) {
        run("compact --tier " + tier.number(), m -> m.compact(new CompactionOptions(tier, Optional.empty(), false,
                threads, memoryLimit, maxCompactedFiles, OptionalInt.empty())));
    }

    private interface Job {
        Object run(LakeMaintenance maintenance) throws Exception;
    }

    /** Runs one job to the end, or skips it when it is still running here or another pod holds the lock. */
    void run(String name, Job job) {
        AtomicBoolean flag = running.computeIfAbsent(name, n -> new AtomicBoolean());
        if (!flag.compareAndSet(false, true)) {
            LOG.infof("Scheduled %s: the previous run is still going; skipped", name);
            return;
        }
        Map<String, String> env = new HashMap<>(ProcessEnvironment.variables());
        env.put("MILLPOND_DUCKDB_EXTENSION_DIR", extensionDirectory);
        PushgatewayTiming timing = PushgatewayTiming.start(name, env);
        try (LakeSession session = LakeSession.open(MaintenanceSettings.fromEnvironment(env), "scheduled " + name)) {
            Object result = job.run(new LakeMaintenance(session));
            timing.finish(true, result instanceof Compaction.Result c ? Optional.of(c) : Optional.empty());
        } catch (MaintenanceLock.LockHeldException e) {
            LOG.infof("Scheduled %s skipped: %s", name, e.getMessage());
            timing.finish(true, Optional.empty());
        } catch (Exception e) {
            LOG.errorf(e, "Scheduled %s failed", name);
            timing.finish(false, Optional.empty());
        } finally {
            flag.set(false);
        }
    }
}
