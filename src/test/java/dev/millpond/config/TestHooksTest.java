package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** Each active test hook is one startup warning; a production configuration has none. */
class TestHooksTest {

    private static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    @Test
    void noHookNoWarning() {
        assertThat(TestHooks.warnings(TestEnv.load(), props())).isEmpty();
        assertThat(TestHooks.warnings(TestEnv.load("MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS", "0"),
                props(TestHooks.FLUSH_PLANS_PROPERTY, "true", TestHooks.REDACTION_PROPERTY, "true"))).isEmpty();
    }

    @Test
    void eachActiveHookIsOneWarningNamingIt() {
        assertThat(TestHooks.warnings(TestEnv.load("MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS", "1500"), props()))
                .singleElement().asString().startsWith("TEST HOOK ACTIVE: MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS=1500");
        assertThat(TestHooks.warnings(TestEnv.load(), props(TestHooks.FLUSH_PLANS_PROPERTY, "false")))
                .singleElement().asString().contains("-Dmillpond.test.flush-plans=false");
        assertThat(TestHooks.warnings(TestEnv.load(), props(TestHooks.REDACTION_PROPERTY, "false")))
                .singleElement().asString().contains("-Dmillpond.test.redaction=false");
        assertThat(TestHooks.warnings(TestEnv.load("MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS", "1"),
                props(TestHooks.FLUSH_PLANS_PROPERTY, "false", TestHooks.REDACTION_PROPERTY, "false"))).hasSize(3)
                .allSatisfy(w -> assertThat(w).startsWith("TEST HOOK ACTIVE: ").doesNotContain("\n"));
    }
}
