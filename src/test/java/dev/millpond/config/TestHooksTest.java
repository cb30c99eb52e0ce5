package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each active test hook is one startup warning; a production configuration has none. */
class TestHooksTest {

    private static TestHooks hooks(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return TestHooks.parse(p);
    }

    @Test
    void noHookNoWarning() {
        assertThat(hooks()).isEqualTo(TestHooks.NONE);
        assertThat(hooks().warnings(TestEnv.load())).isEmpty();
        assertThat(hooks(TestHooks.FLUSH_PLANS_PROPERTY, "true", TestHooks.REDACTION_PROPERTY, "true")
                .warnings(TestEnv.load("MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS", "0"))).isEmpty();
    }

    @Test
    void eachActiveHookIsOneWarningNamingIt() {
        assertThat(hooks().warnings(TestEnv.load("MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS", "1500")))
                .singleElement().asString().startsWith("TEST HOOK ACTIVE: MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS=1500");
        assertThat(hooks(TestHooks.FLUSH_PLANS_PROPERTY, "false").warnings(TestEnv.load()))
                .singleElement().asString().contains("-Dmillpond.test.flush-plans=false");
        assertThat(hooks(TestHooks.REDACTION_PROPERTY, "false").warnings(TestEnv.load()))
                .singleElement().asString().contains("-Dmillpond.test.redaction=false");
        assertThat(hooks(TestHooks.WRITE_ALLOWANCE_PROPERTY, "10").warnings(TestEnv.load()))
                .singleElement().asString().contains("-Dmillpond.test.write-allowance-s=10");
        assertThat(hooks(TestHooks.LAG_REFRESH_PROPERTY, "200").warnings(TestEnv.load()))
                .singleElement().asString().contains("-Dmillpond.test.lag-refresh-ms=200");
        assertThat(hooks(TestHooks.FLUSH_PLANS_PROPERTY, "false", TestHooks.REDACTION_PROPERTY, "false",
                TestHooks.WRITE_ALLOWANCE_PROPERTY, "10", TestHooks.LAG_REFRESH_PROPERTY, "200")
                .warnings(TestEnv.load("MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS", "1"))).hasSize(5)
                .allSatisfy(w -> assertThat(w).startsWith("TEST HOOK ACTIVE: ").doesNotContain("\n"));
    }

    @Test
    void theHooksAreTyped() {
        TestHooks all = hooks(TestHooks.FLUSH_PLANS_PROPERTY, "false", TestHooks.REDACTION_PROPERTY, "false",
                TestHooks.WRITE_ALLOWANCE_PROPERTY, " 10 ", TestHooks.LAG_REFRESH_PROPERTY, "200");
        assertThat(all).isEqualTo(new TestHooks(false, false, Optional.of(Duration.ofSeconds(10)),
                Optional.of(Duration.ofMillis(200))));
    }

    @Test
    void aBadNumberFailsInOneLineNamingTheProperty() {
        assertThatThrownBy(() -> hooks(TestHooks.WRITE_ALLOWANCE_PROPERTY, "ten")).isInstanceOf(ConfigException.class)
                .hasMessage("-Dmillpond.test.write-allowance-s must be an integer, got 'ten'");
        assertThatThrownBy(() -> hooks(TestHooks.LAG_REFRESH_PROPERTY, "-5")).isInstanceOf(ConfigException.class)
                .hasMessage("-Dmillpond.test.lag-refresh-ms must be 0 or more, got -5");
    }
}
