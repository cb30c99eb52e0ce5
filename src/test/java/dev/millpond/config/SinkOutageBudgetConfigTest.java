package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MILLPOND_SINK_OUTAGE_BUDGET_S: how long a flush is retried while the catalog or object store is down. */
class SinkOutageBudgetConfigTest {

    @Test
    void defaultsToFiveMinutesWellInsideTheLivenessDeadline() {
        assertThat(TestEnv.load().sinkOutageBudget()).isEqualTo(Duration.ofSeconds(300));
    }

    @Test
    void acceptsZeroToTurnOutageModeOffAndPythonIntSpellings() {
        assertThat(TestEnv.load("MILLPOND_SINK_OUTAGE_BUDGET_S", "0").sinkOutageBudget()).isZero();
        assertThat(TestEnv.load("MILLPOND_SINK_OUTAGE_BUDGET_S", " 1_200 ").sinkOutageBudget())
                .isEqualTo(Duration.ofSeconds(1200));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "3601", "5m", ""})
    void rejectsOtherValuesNamingTheVariable(String raw) {
        assertThatThrownBy(() -> TestEnv.load("MILLPOND_SINK_OUTAGE_BUDGET_S", raw))
                .isInstanceOf(ConfigException.class).hasMessageContaining("MILLPOND_SINK_OUTAGE_BUDGET_S");
    }
}
