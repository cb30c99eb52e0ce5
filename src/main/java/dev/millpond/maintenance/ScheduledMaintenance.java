package dev.millpond.maintenance;

import dev.millpond.config.ConfigException;
import dev.millpond.config.MaintenanceJob;
import dev.millpond.config.ProcessEnvironment;
import dev.millpond.config.ScheduledMaintenanceConfig;
import dev.millpond.config.WriterProcessConfig;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled.ConcurrentExecution;
import io.quarkus.scheduler.Scheduler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The maintenance jobs scheduled inside the writer, each off unless its schedule is configured: an interval
 * ({@code MILLPOND_MAINTENANCE_<JOB>_EVERY}, e.g. {@code 15m}) or a Quartz cron expression
 * ({@code MILLPOND_MAINTENANCE_<JOB>_CRON}), jobs {@code COMPACT_TIER1}, {@code COMPACT_TIER2}, {@code COMPACT_TIER3},
 * {@code MAINTAIN}, {@code FLUSH_INLINED} ({@link MaintenanceJob}, read with the process's settings). They are
 * scheduled through Quarkus's scheduler API rather than {@code @Scheduled} expressions, so the schedules are read and
 * validated where every other variable is. They run on the scheduler's worker threads, never on the pump thread, each
 * with its own DuckDB connection and catalog session, so a job never blocks a flush (they meet only as two DuckLake
 * commits, which DuckLake's commit retry serialises). Every pod of a StatefulSet schedules the same jobs; the
 * maintenance advisory lock lets one of them run each time and the others skip.
 */
@ApplicationScoped
public class ScheduledMaintenance {

    private static final Logger LOG = Logger.getLogger(ScheduledMaintenance.class);

    /** A job's interval and cron triggers must not overlap each other either. */
    private final Map<String, AtomicBoolean> running = new ConcurrentHashMap<>();

    @Inject
    Scheduler scheduler;

    /**
     * Schedules each job whose interval or cron expression is set; both set means two triggers. The schedules were
     * validated with the rest of the process's settings: when those are wrong, PumpLauncher says so in one line and
     * the process ends, so nothing is scheduled here.
     */
    void onStart(@Observes StartupEvent event) {
        ScheduledMaintenanceConfig config;
        try {
            config = WriterProcessConfig.fromProcess().maintenance();
        } catch (ConfigException e) {
            return;
        }
        config.schedules().forEach((job, schedule) -> {
            schedule.every().ifPresent(every -> scheduler.newJob("maintenance-" + job.identity() + "-every")
                    .setInterval(every.toString()).setConcurrentExecution(ConcurrentExecution.SKIP)
                    .setTask(execution -> run(job, config)).schedule());
            schedule.cron().ifPresent(cron -> scheduler.newJob("maintenance-" + job.identity() + "-cron")
                    .setCron(cron).setConcurrentExecution(ConcurrentExecution.SKIP)
                    .setTask(execution -> run(job, config)).schedule());
        });
    }

    private void run(MaintenanceJob job, ScheduledMaintenanceConfig limits) {
        switch (job) {
            case COMPACT_TIER1 -> compact(CompactionTier.ONE, limits);
            case COMPACT_TIER2 -> compact(CompactionTier.TWO, limits);
            case COMPACT_TIER3 -> compact(CompactionTier.THREE, limits);
            case MAINTAIN -> run("maintain", m -> {
                m.maintain(limits.days(), false);
                return null;
            });
            case FLUSH_INLINED -> flushInlined(limits);
        }
    }

    /**
     * Every table's inlined rows out to parquet. With a quiet pipeline each flush (and its offsets rows) is an inlined
     * insert, so without this the catalog only ever grows; see {@link InlinedData}.
     */
    private void flushInlined(ScheduledMaintenanceConfig limits) {
        run("flush-inlined", m -> {
            m.limitDuckDb(limits.threads(), limits.memoryLimit());
            InlinedData.Result result = m.flushInlined(Optional.empty(), false);
            if (!result.failed().isEmpty()) {
                throw new java.sql.SQLException("the flush of " + String.join(", ", result.failed()) + " failed");
            }
            return result;
        });
    }

    private void compact(CompactionTier tier, ScheduledMaintenanceConfig limits) {
        run("compact --tier " + tier.number(), m -> m.compact(new CompactionOptions(tier, Optional.empty(), false,
                limits.threads(), limits.memoryLimit(), limits.maxCompactedFiles(), OptionalInt.empty())));
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
