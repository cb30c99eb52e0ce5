package dev.millpond.config;

import java.util.Locale;

/**
 * The maintenance jobs the writer can schedule itself, each off unless MILLPOND_MAINTENANCE_&lt;JOB&gt;_EVERY (an
 * interval) or MILLPOND_MAINTENANCE_&lt;JOB&gt;_CRON (a Quartz cron expression) is set.
 */
public enum MaintenanceJob {
    COMPACT_TIER1, COMPACT_TIER2, COMPACT_TIER3, MAINTAIN, FLUSH_INLINED;

    /** The interval's variable. */
    public String everyVariable() {
        return "MILLPOND_MAINTENANCE_" + name() + "_EVERY";
    }

    /** The cron expression's variable. */
    public String cronVariable() {
        return "MILLPOND_MAINTENANCE_" + name() + "_CRON";
    }

    /** The job's name in trigger identities and log lines: {@code compact-tier1}, {@code flush-inlined}. */
    public String identity() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
