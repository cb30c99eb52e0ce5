package dev.millpond.config;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.parser.CronParser;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;

/**
 * When a maintenance job runs: at an interval, on a cron expression, both (each its own trigger), or never. The values
 * are the ones Quarkus {@code @Scheduled} takes, which read these variables before: an interval such as {@code 15m},
 * {@code 2s}, {@code 1d} or an ISO-8601 duration, and a Quartz cron expression; unset, empty, {@code off} or
 * {@code disabled} leaves the trigger off.
 *
 * @param every the interval, when on
 * @param cron  the cron expression, when on
 */
public record JobSchedule(Optional<Duration> every, Optional<String> cron) {

    public static final JobSchedule OFF = new JobSchedule(Optional.empty(), Optional.empty());

    private static final CronParser QUARTZ =
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.QUARTZ));

    static JobSchedule parse(Env env, MaintenanceJob job) {
        return new JobSchedule(value(env, job.everyVariable()).map(v -> interval(job.everyVariable(), v)),
                value(env, job.cronVariable()).map(v -> cron(job.cronVariable(), v)));
    }

    private static Optional<String> value(Env env, String name) {
        String v = env.raw(name);
        if (v == null || v.isBlank()) {
            return Optional.empty();
        }
        String s = v.strip();
        String lower = s.toLowerCase(Locale.ROOT);
        return lower.equals("off") || lower.equals("disabled") ? Optional.empty() : Optional.of(s);
    }

    /** As Quarkus reads {@code every}: a leading digit means {@code PT} before it, or {@code P} when it ends in d. */
    private static Duration interval(String name, String value) {
        String iso = Character.isDigit(value.charAt(0))
                ? (value.toLowerCase(Locale.ROOT).endsWith("d") ? "P" : "PT") + value : value;
        Duration d;
        try {
            d = Duration.parse(iso);
        } catch (DateTimeParseException e) {
            throw new ConfigException(name + " must be an interval such as 15m, 2h or 1d, or off, got '" + value + "'");
        }
        if (d.isNegative() || d.isZero()) {
            throw new ConfigException(name + " must be a positive interval, got '" + value + "'");
        }
        return d;
    }

    private static String cron(String name, String value) {
        try {
            QUARTZ.parse(value).validate();
        } catch (IllegalArgumentException e) {
            throw new ConfigException(name + " is not a Quartz cron expression (such as 0 */15 * * * ?): '" + value
                    + "': " + e.getMessage());
        }
        return value;
    }
}
