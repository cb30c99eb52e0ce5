package dev.millpond.maintenance;

import dev.millpond.config.ProcessEnvironment;
import dev.millpond.config.ScheduledMaintenanceConfig;
import dev.millpond.config.WriterProcessConfig;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

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
            m.maintain(limits().days(), false);
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
            m.limitDuckDb(limits().threads(), limits().memoryLimit());
            InlinedData.Result result = m.flushInlined(Optional.empty(), false);
            if (!result.failed().isEmpty()) {
                throw new java.sql.SQLException("the flush of " + String.join(", ", result.failed()) + " failed");
            }
            return result;
        });
    }

    private void compact(CompactionTier tier) {
        ScheduledMaintenanceConfig limits = limits();
        run("compact --tier " + tier.number(), m -> m.compact(new CompactionOptions(tier, Optional.empty(), false,
                limits.threads(), limits.memoryLimit(), limits.maxCompactedFiles(), OptionalInt.empty())));
    }

    /** Validated at startup, before any job can run: a bad value ends the process there. */
    private static ScheduledMaintenanceConfig limits() {
        return WriterProcessConfig.fromProcess().maintenance();
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
        Map<String, String> env = ProcessEnvironment.variables();
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
