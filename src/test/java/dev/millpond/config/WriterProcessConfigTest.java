package dev.millpond.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The writer's process settings: the defaults MicroProfile Config applied before, and one line for a bad value. */
class WriterProcessConfigTest {

    private static WriterProcessConfig load(String... kv) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        return WriterProcessConfig.load(env, new Properties());
    }

    @Test
    void unsetOrEmptyGivesTheDefaults() {
        for (WriterProcessConfig c : new WriterProcessConfig[]{load(), load("MILLPOND_STOP_DEADLINE_S", "",
                "MILLPOND_PUMP_AUTOSTART", "", "MILLPOND_DUCKDB_EXTENSION_DIR", "", "MILLPOND_MEMORY_LIMIT", " ",
                "MILLPOND_MAINTENANCE_DAYS", "", "MILLPOND_MAINTENANCE_MEMORY_LIMIT", "",
                "MILLPOND_MAINTENANCE_THREADS", "", "MILLPOND_MAINTENANCE_MAX_COMPACTED_FILES", "",
                "MILLPOND_MAINTENANCE_MAINTAIN_EVERY", "", "MILLPOND_MAINTENANCE_MAINTAIN_CRON", "off")}) {
            assertThat(c.stopDeadline()).isEqualTo(Duration.ofSeconds(90));
            assertThat(c.pumpAutostart()).isTrue();
            assertThat(c.duckDbExtensionDirectory()).isEqualTo(Path.of("/opt/millpond/duckdb-extensions"));
            assertThat(c.memoryLimit()).isEmpty();
            ScheduledMaintenanceConfig m = c.maintenance();
            assertThat(m.days()).isEqualTo(7);
            assertThat(m.memoryLimit()).isEqualTo("512MB");
            assertThat(m.threads()).isEqualTo(1);
            assertThat(m.maxCompactedFiles()).isEqualTo(80);
            assertThat(m.schedules()).hasSize(MaintenanceJob.values().length).allSatisfy((job, schedule) ->
                    assertThat(schedule).isEqualTo(JobSchedule.OFF));
            assertThat(c.testHooks()).isEqualTo(TestHooks.NONE);
        }
    }

    @Test
    void setValuesAreTyped() {
        WriterProcessConfig c = load("MILLPOND_STOP_DEADLINE_S", "10", "MILLPOND_PUMP_AUTOSTART", "false",
                "MILLPOND_DUCKDB_EXTENSION_DIR", "/ext", "MILLPOND_MEMORY_LIMIT", "768Mi",
                "MILLPOND_MAINTENANCE_DAYS", "3", "MILLPOND_MAINTENANCE_MEMORY_LIMIT", "256MB",
                "MILLPOND_MAINTENANCE_THREADS", "2", "MILLPOND_MAINTENANCE_MAX_COMPACTED_FILES", "40",
                "MILLPOND_MAINTENANCE_COMPACT_TIER1_EVERY", "2s",
                "MILLPOND_MAINTENANCE_FLUSH_INLINED_CRON", "0 */15 * * * ?");
        assertThat(c.stopDeadline()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.pumpAutostart()).isFalse();
        assertThat(c.duckDbExtensionDirectory()).isEqualTo(Path.of("/ext"));
        assertThat(c.memoryLimit()).isEqualTo(OptionalLong.of(768L << 20));
        assertThat(c.maintenance()).isEqualTo(new ScheduledMaintenanceConfig(3, "256MB", 2, 40, Map.of(
                MaintenanceJob.COMPACT_TIER1, new JobSchedule(Optional.of(Duration.ofSeconds(2)), Optional.empty()),
                MaintenanceJob.COMPACT_TIER2, JobSchedule.OFF, MaintenanceJob.COMPACT_TIER3, JobSchedule.OFF,
                MaintenanceJob.MAINTAIN, JobSchedule.OFF,
                MaintenanceJob.FLUSH_INLINED, new JobSchedule(Optional.empty(), Optional.of("0 */15 * * * ?")))));
    }

    /** The interval forms Quarkus's {@code every} took when it read these variables. */
    @ParameterizedTest
    @CsvSource({"15m,PT15M", "2s,PT2S", "1h,PT1H", "1d,PT24H", "PT30S,PT30S", "OFF,", "disabled,"})
    void intervalsReadAsQuarkusReadThem(String value, String expected) {
        assertThat(load("MILLPOND_MAINTENANCE_MAINTAIN_EVERY", value).maintenance().schedules()
                .get(MaintenanceJob.MAINTAIN).every()).isEqualTo(Optional.ofNullable(expected).map(Duration::parse));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "MILLPOND_STOP_DEADLINE_S|ninety|MILLPOND_STOP_DEADLINE_S must be an integer, got 'ninety'",
            "MILLPOND_PUMP_AUTOSTART|yes|MILLPOND_PUMP_AUTOSTART must be true or false, got 'yes'",
            "MILLPOND_MEMORY_LIMIT|lots|MILLPOND_MEMORY_LIMIT must be a size such as 1Gi, 768Mi or 1073741824, got 'lots'",
            "MILLPOND_MAINTENANCE_DAYS|7.5|MILLPOND_MAINTENANCE_DAYS must be an integer, got '7.5'",
            "MILLPOND_MAINTENANCE_THREADS|x|MILLPOND_MAINTENANCE_THREADS must be an integer, got 'x'",
            "MILLPOND_MAINTENANCE_MAX_COMPACTED_FILES|many|MILLPOND_MAINTENANCE_MAX_COMPACTED_FILES must be an integer, got 'many'",
            "MILLPOND_MAINTENANCE_COMPACT_TIER2_EVERY|soon|MILLPOND_MAINTENANCE_COMPACT_TIER2_EVERY must be an interval such as 15m, 2h or 1d, or off, got 'soon'",
            "MILLPOND_MAINTENANCE_COMPACT_TIER2_EVERY|0s|MILLPOND_MAINTENANCE_COMPACT_TIER2_EVERY must be a positive interval, got '0s'",
    })
    void aBadValueFailsInOneLineNamingTheVariable(String name, String value, String message) {
        assertThatThrownBy(() -> load(name, value)).isInstanceOf(ConfigException.class).hasMessage(message);
    }

    @Test
    void aBadCronExpressionFailsNamingTheVariable() {
        assertThatThrownBy(() -> load("MILLPOND_MAINTENANCE_MAINTAIN_CRON", "every quarter hour"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("MILLPOND_MAINTENANCE_MAINTAIN_CRON is not a Quartz cron expression")
                .hasMessageNotContaining("\n");
    }

    @Test
    void theTestHooksComeFromTheSystemProperties() {
        Properties system = new Properties();
        system.setProperty(TestHooks.LAG_REFRESH_PROPERTY, "200");
        assertThat(WriterProcessConfig.load(Map.of(), system).testHooks().lagRefresh())
                .contains(Duration.ofMillis(200));
    }
}
