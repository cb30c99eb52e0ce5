package dev.millpond.config;

import java.util.EnumMap;
import java.util.Map;

/**
 * The limits of the maintenance jobs the writer schedules itself. A compaction or an inlined-data flush inside the
 * writer pod shares the pod's memory limit with the pump, so the defaults are far below the CronJob's 2 threads / 4GB.
 *
 * @param days              MILLPOND_MAINTENANCE_DAYS, default 7: the snapshot age of the maintain job (expire, then
 *                          clean up files queued that long ago)
 * @param memoryLimit       MILLPOND_MAINTENANCE_MEMORY_LIMIT, default {@code 512MB}: DuckDB's {@code memory_limit}
 * @param threads           MILLPOND_MAINTENANCE_THREADS, default 1: DuckDB's threads
 * @param maxCompactedFiles MILLPOND_MAINTENANCE_MAX_COMPACTED_FILES, default 80: the budget of one compaction run
 * @param schedules         each job's MILLPOND_MAINTENANCE_&lt;JOB&gt;_EVERY and _CRON, every job present (off
 *                          unless set)
 */
public record ScheduledMaintenanceConfig(int days, String memoryLimit, int threads, int maxCompactedFiles,
                                         Map<MaintenanceJob, JobSchedule> schedules) {

    public ScheduledMaintenanceConfig {
        schedules = Map.copyOf(schedules);
    }

    static ScheduledMaintenanceConfig parse(Env env) {
        Map<MaintenanceJob, JobSchedule> schedules = new EnumMap<>(MaintenanceJob.class);
        for (MaintenanceJob job : MaintenanceJob.values()) {
            schedules.put(job, JobSchedule.parse(env, job));
        }
        return new ScheduledMaintenanceConfig(
                WriterProcessConfig.intOrDefault(env, "MILLPOND_MAINTENANCE_DAYS", 7),
                env.orDefaultIfEmpty("MILLPOND_MAINTENANCE_MEMORY_LIMIT", "512MB"),
                WriterProcessConfig.intOrDefault(env, "MILLPOND_MAINTENANCE_THREADS", 1),
                WriterProcessConfig.intOrDefault(env, "MILLPOND_MAINTENANCE_MAX_COMPACTED_FILES", 80), schedules);
    }
}
