package dev.millpond.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The production image's test hooks, which only tests set, read once at startup with the rest of the writer's
 * process settings ({@link WriterProcessConfig}). Besides the variable MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS (in
 * {@link MillpondConfig}, a pause between the lake write and the offset commit for killing a pod inside that window),
 * they are system properties, so no deployment sets one by copying a variable list: hoglake flush plans turned off
 * ({@code -Dmillpond.test.flush-plans=false}, the chaos test's control run, which gives up exactly-once), log
 * redaction turned off ({@code -Dmillpond.test.redaction=false}, the leak checks' positive control), the hung-write
 * deadline shortened ({@code -Dmillpond.test.write-allowance-s=N}) and the lag refresh shortened
 * ({@code -Dmillpond.test.lag-refresh-ms=N}, for tests that watch the lag settle). Each active hook is one startup
 * warning, so a deployment that carries one by mistake says so.
 *
 * @param flushPlans     false only under {@code -Dmillpond.test.flush-plans=false}
 * @param redaction      false only under {@code -Dmillpond.test.redaction=false}
 * @param writeAllowance what a write may take besides an outage wait before liveness calls it hung, when a test
 *                       shortens it; empty outside tests
 * @param lagRefresh     how often the lag gauges are refreshed, when a test shortens it; empty outside tests
 */
public record TestHooks(boolean flushPlans, boolean redaction, Optional<Duration> writeAllowance,
                        Optional<Duration> lagRefresh) {

    public static final String FLUSH_PLANS_PROPERTY = "millpond.test.flush-plans";
    public static final String REDACTION_PROPERTY = "millpond.test.redaction";
    public static final String WRITE_ALLOWANCE_PROPERTY = "millpond.test.write-allowance-s";
    public static final String LAG_REFRESH_PROPERTY = "millpond.test.lag-refresh-ms";

    /** No hook active: what a deployment runs with. */
    public static final TestHooks NONE = new TestHooks(true, true, Optional.empty(), Optional.empty());

    /**
     * The hooks the JVM was started with.
     *
     * @throws ConfigException naming the property when a number is not one
     */
    public static TestHooks fromSystemProperties() {
        return parse(System.getProperties());
    }

    /**
     * Whether log redaction is on, never failing: the log filter asks before the configuration is validated, and an
     * unreadable hook must leave redaction on.
     */
    public static boolean redactionFromSystemProperties() {
        return redaction(System.getProperties());
    }

    static TestHooks parse(Properties system) {
        return new TestHooks(!"false".equals(system.getProperty(FLUSH_PLANS_PROPERTY)), redaction(system),
                duration(system, WRITE_ALLOWANCE_PROPERTY).map(Duration::ofSeconds),
                duration(system, LAG_REFRESH_PROPERTY).map(Duration::ofMillis));
    }

    private static boolean redaction(Properties system) {
        return !"false".equals(system.getProperty(REDACTION_PROPERTY));
    }

    private static Optional<Long> duration(Properties system, String property) {
        String value = system.getProperty(property);
        if (value == null) {
            return Optional.empty();
        }
        long n = PythonInt.parseLong("-D" + property, value);
        if (n < 0) {
            throw new ConfigException("-D" + property + " must be 0 or more, got " + n);
        }
        return Optional.of(n);
    }

    /** One warning line per active hook, MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS's included. */
    public List<String> warnings(MillpondConfig config) {
        List<String> warnings = new ArrayList<>();
        if (config.testPauseAfterLakeCommitMs() > 0) {
            warnings.add("TEST HOOK ACTIVE: MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS=" + config.testPauseAfterLakeCommitMs()
                    + " pauses every flush between the lake write and the offset commit; unset it outside tests");
        }
        if (!flushPlans) {
            warnings.add("TEST HOOK ACTIVE: -D" + FLUSH_PLANS_PROPERTY + "=false turns hoglake flush plans off, so a"
                    + " restart can write a flush twice; remove it outside tests");
        }
        if (!redaction) {
            warnings.add("TEST HOOK ACTIVE: -D" + REDACTION_PROPERTY + "=false turns log redaction off, so secrets can"
                    + " reach the log; remove it outside tests");
        }
        writeAllowance.ifPresent(d -> warnings.add("TEST HOOK ACTIVE: -D" + WRITE_ALLOWANCE_PROPERTY + "="
                + d.toSeconds() + " shortens how long a write may take before liveness fails; remove it outside"
                + " tests"));
        lagRefresh.ifPresent(d -> warnings.add("TEST HOOK ACTIVE: -D" + LAG_REFRESH_PROPERTY + "=" + d.toMillis()
                + " refreshes the consumer lag that often instead of once a minute, loading the brokers; remove it"
                + " outside tests"));
        return warnings;
    }
}
