package dev.millpond.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The production image's test hooks, which only tests set: a pause between the lake write and the offset commit
 * (MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS, for killing a pod inside that window), hoglake flush plans turned off
 * ({@code -Dmillpond.test.flush-plans=false}, the chaos test's control run, which gives up exactly-once), and log
 * redaction turned off ({@code -Dmillpond.test.redaction=false}, the leak checks' positive control), and the hung-write
 * deadline shortened ({@code -Dmillpond.test.write-allowance-s=N}). Each active hook
 * is one startup warning, so a deployment that carries one by mistake says so.
 */
public final class TestHooks {

    public static final String FLUSH_PLANS_PROPERTY = "millpond.test.flush-plans";
    public static final String REDACTION_PROPERTY = "millpond.test.redaction";
    public static final String WRITE_ALLOWANCE_PROPERTY = "millpond.test.write-allowance-s";

    private TestHooks() {
    }

    /** Whether hoglake flush plans are on (they are unless the test property turns them off). */
    public static boolean flushPlans(Properties system) {
        return !"false".equals(system.getProperty(FLUSH_PLANS_PROPERTY));
    }

    /** Whether log redaction is on (it is unless the test property turns it off). */
    public static boolean redaction(Properties system) {
        return !"false".equals(system.getProperty(REDACTION_PROPERTY));
    }

    /**
     * What a write may take besides an outage wait before liveness calls it hung, when a test shortens it
     * ({@code -Dmillpond.test.write-allowance-s=N}, so a hung write fails liveness in seconds instead of minutes);
     * empty outside tests.
     */
    public static Optional<Duration> writeAllowance(Properties system) {
        String value = system.getProperty(WRITE_ALLOWANCE_PROPERTY);
        return value == null ? Optional.empty() : Optional.of(Duration.ofSeconds(Long.parseLong(value.strip())));
    }

    /** One warning line per active hook. */
    public static List<String> warnings(MillpondConfig config, Properties system) {
        List<String> warnings = new ArrayList<>();
        if (config.testPauseAfterLakeCommitMs() > 0) {
            warnings.add("TEST HOOK ACTIVE: MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS=" + config.testPauseAfterLakeCommitMs()
                    + " pauses every flush between the lake write and the offset commit; unset it outside tests");
        }
        if (!flushPlans(system)) {
            warnings.add("TEST HOOK ACTIVE: -D" + FLUSH_PLANS_PROPERTY + "=false turns hoglake flush plans off, so a"
                    + " restart can write a flush twice; remove it outside tests");
        }
        if (!redaction(system)) {
            warnings.add("TEST HOOK ACTIVE: -D" + REDACTION_PROPERTY + "=false turns log redaction off, so secrets can"
                    + " reach the log; remove it outside tests");
        }
        if (writeAllowance(system).isPresent()) {
            warnings.add("TEST HOOK ACTIVE: -D" + WRITE_ALLOWANCE_PROPERTY + "=" + system.getProperty(
                    WRITE_ALLOWANCE_PROPERTY) + " shortens how long a write may take before liveness fails; remove it"
                    + " outside tests");
        }
        return warnings;
    }
}
