package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MILLPOND_PARTITION_REFRESH_INTERVAL_S: how often the pump looks for partitions added to its topic. */
class PartitionRefreshConfigTest {

    @Test
    void defaultsToAMinute() {
        assertThat(TestEnv.load().partitionRefreshInterval()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void acceptsZeroToReadTheCountOnlyAtStartupAndPythonIntSpellings() {
        assertThat(TestEnv.load("MILLPOND_PARTITION_REFRESH_INTERVAL_S", "0").partitionRefreshInterval()).isZero();
        assertThat(TestEnv.load("MILLPOND_PARTITION_REFRESH_INTERVAL_S", " 1_200 ").partitionRefreshInterval())
                .isEqualTo(Duration.ofSeconds(1200));
        assertThat(TestEnv.load("MILLPOND_PARTITION_REFRESH_INTERVAL_S", "3600").partitionRefreshInterval())
                .isEqualTo(Duration.ofHours(1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "3601", "1m", "", "2.5"})
    void rejectsOtherValuesInOneLineNamingTheVariable(String raw) {
        assertThatThrownBy(() -> TestEnv.load("MILLPOND_PARTITION_REFRESH_INTERVAL_S", raw))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("MILLPOND_PARTITION_REFRESH_INTERVAL_S")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
