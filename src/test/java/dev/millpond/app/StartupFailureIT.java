package dev.millpond.app;

import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.LakeTopic;
import dev.millpond.testsupport.LegacyDuckDb;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** A bad environment fails the packaged app at startup with a non-zero exit and one line that names the variable. */
class StartupFailureIT {

    static Stream<Arguments> badEnvironments() {
        return Stream.of(
                Arguments.of("KAFKA_TOPIC", null, "Required environment variable KAFKA_TOPIC is not set"),
                Arguments.of("REPLICA_COUNT", "abc", "REPLICA_COUNT"),
                Arguments.of("POD_NAME", "millpond-2", "Ordinal 2 >= REPLICA_COUNT 2"),
                Arguments.of("DUCKLAKE_TABLE", "events;drop", "DUCKLAKE_TABLE contains unsafe characters"),
                Arguments.of("MILLPOND_MEMORY_LIMIT", "lots", "MILLPOND_MEMORY_LIMIT must be a size"),
                Arguments.of("KAFKA_TOPIC", "no-such-topic", "Topic 'no-such-topic' not found"),
                // Settings Quarkus applies itself: refused with the project's message, never a Quarkus SRCFG error.
                Arguments.of("LOG_LEVEL", "LOUD", "LOG_LEVEL must be one of CRITICAL, ERROR, WARNING, INFO, DEBUG"),
                Arguments.of("MILLPOND_HTTP_PORT", "http", "MILLPOND_HTTP_PORT must be an integer, got 'http'"),
                Arguments.of("MILLPOND_HTTP_PORT", "65536", "MILLPOND_HTTP_PORT must be between 0 and 65535"),
                // The process's own settings, read by the config loader like every other variable (Quarkus once read
                // these and failed with its own multi-line error).
                Arguments.of("MILLPOND_STOP_DEADLINE_S", "ninety",
                        "MILLPOND_STOP_DEADLINE_S must be an integer, got 'ninety'"),
                Arguments.of("MILLPOND_MAINTENANCE_THREADS", "two",
                        "MILLPOND_MAINTENANCE_THREADS must be an integer, got 'two'"),
                Arguments.of("MILLPOND_MAINTENANCE_COMPACT_TIER1_EVERY", "soon",
                        "MILLPOND_MAINTENANCE_COMPACT_TIER1_EVERY must be an interval"),
                Arguments.of("MILLPOND_MAINTENANCE_MAINTAIN_CRON", "hourly",
                        "MILLPOND_MAINTENANCE_MAINTAIN_CRON is not a Quartz cron expression"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("badEnvironments")
    void failsStartupNamingTheProblem(String variable, String value, String expected) throws Exception {
        LakeTopic setup = LakeTopic.create("bad", 2);
        Map<String, String> env = setup.environment("REPLICA_COUNT", "2",
                "POD_NAME", "millpond-1");
        if (value == null) {
            env.remove(variable);
        } else {
            env.put(variable, value);
        }
        Path log = Path.of("target", "e2e-logs", "startup-" + variable + "-" + setup.topic() + ".log");
        try (AppProcess app = AppProcess.start(env, log)) {
            int code = app.waitForExit(Duration.ofSeconds(90));
            assertThat(code).as(app.logTail()).isNotZero();
            String text = app.logText();
            assertThat(text.lines().filter(l -> l.contains(expected)).count()).as(app.logTail()).isEqualTo(1);
            assertThat(text).as(app.logTail()).doesNotContain("SRCFG");
        }
    }

    static Stream<Arguments> refusedSecrets() throws java.io.IOException {
        Path file = Files.writeString(Files.createTempFile("secret", ".txt"), "from-a-file\n");
        return Stream.of(
                Arguments.of("an unreadable secret file", new String[]{"DUCKLAKE_RDS_PASSWORD", null,
                        "DUCKLAKE_RDS_PASSWORD_FILE", "/nonexistent/millpond/pw"},
                        "DUCKLAKE_RDS_PASSWORD_FILE: cannot read the secret file /nonexistent/millpond/pw (no such file)"),
                Arguments.of("a secret set both ways", new String[]{"DUCKLAKE_RDS_PASSWORD_FILE", file.toString()},
                        "DUCKLAKE_RDS_PASSWORD and DUCKLAKE_RDS_PASSWORD_FILE are both set"),
                Arguments.of("the include-values token over plain http", new String[]{
                        "MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id", "MILLPOND_FILTER_VALUES", "1,2",
                        "MILLPOND_INCLUDE_VALUES_URL", "http://allowlist.example.internal/teams",
                        "MILLPOND_INCLUDE_VALUES_AUTH_HEADER_NAME", "X-Api-Key",
                        "MILLPOND_INCLUDE_VALUES_AUTH_TOKEN", "iv-secret-token-77"},
                        "MILLPOND_INCLUDE_VALUES_URL 'http://allowlist.example.internal/teams' with"
                                + " MILLPOND_INCLUDE_VALUES_AUTH_TOKEN set is plain http to another host"),
                Arguments.of("the PostHog token over plain http", new String[]{
                        "POSTHOG_PROJECT_TOKEN", "phc_secret_token_77",
                        "POSTHOG_LOGS_ENDPOINT", "http://logs.example.internal/i/v1/logs"},
                        "POSTHOG_LOGS_ENDPOINT 'http://logs.example.internal/i/v1/logs' with POSTHOG_PROJECT_TOKEN"
                                + " set is plain http to another host: use https://, or set"
                                + " POSTHOG_LOGS_ALLOW_INSECURE_HTTP=true"));
    }

    /** Secrets that cannot be read, or would travel in clear: one line, non-zero exit, the secret nowhere. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedSecrets")
    void aSecretThatCannotBeKeptFailsStartup(String what, String[] variables, String expected) throws Exception {
        LakeTopic setup = LakeTopic.create("secret", 1);
        Map<String, String> env = setup.environment("REPLICA_COUNT", "1", "POD_NAME", "millpond-0");
        for (int i = 0; i < variables.length; i += 2) {
            if (variables[i + 1] == null) {
                env.remove(variables[i]);
            } else {
                env.put(variables[i], variables[i + 1]);
            }
        }
        Path log = Path.of("target", "e2e-logs", "startup-secret-" + setup.topic() + ".log");
        try (AppProcess app = AppProcess.start(env, log)) {
            assertThat(app.waitForExit(Duration.ofSeconds(90))).as(app.logTail()).isNotZero();
            String text = app.logText();
            assertThat(text.lines().filter(l -> l.contains(expected)).count()).as(app.logTail()).isEqualTo(1);
            assertThat(text).as(app.logTail()).doesNotContain("from-a-file").doesNotContain("secret-token-77")
                    .doesNotContain("secret_token_77").doesNotContain(setup.environment().get("DUCKLAKE_RDS_PASSWORD"));
            assertThat(text.lines().filter(l -> l.startsWith("\tat ") || l.startsWith("Caused by")))
                    .as(app.logTail()).isEmpty();
        }
    }

    /** A DuckLake catalog in a newer format than this build's DuckDB supports: one line, non-zero exit, no write. */
    @Test
    void aCatalogInANewerFormatStopsStartupWithOneLine() throws Exception {
        LakeTopic setup = LakeTopic.create("newer", 1);
        try (Connection c = setup.lake().openQueryConnection()) {
            // attaching created the catalog at this build's format
        }
        try (Connection catalog = Services.postgres().connect(setup.lake().catalogDatabase());
             Statement s = catalog.createStatement()) {
            s.executeUpdate("UPDATE public.ducklake_metadata SET value = '9.9' WHERE key = 'version'");
        }
        Path log = Path.of("target", "e2e-logs", "startup-catalog-" + setup.topic() + ".log");
        try (AppProcess app = AppProcess.start(setup.environment(), log)) {
            assertThat(app.waitForExit(Duration.ofSeconds(90))).as(app.logTail()).isNotZero();
            String text = app.logText();
            assertThat(text.lines().filter(l -> l.contains("is format version 9.9 that this build's DuckDB")
                    && l.contains("nothing was written")).count()).as(app.logTail()).isEqualTo(1);
            assertThat(text).as(app.logTail()).doesNotContain("Fatal error in main loop");
        }
        try (Connection catalog = Services.postgres().connect(setup.lake().catalogDatabase());
             Statement s = catalog.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM public.ducklake_table")) {
            rs.next();
            assertThat(rs.getLong(1)).as("no table was created").isZero();
        }
    }

    /**
     * A catalog this project's earlier releases wrote (format 0.3, made by DuckDB 1.4.4): refused with one line that
     * names the setting which migrates it, and left at 0.3.
     */
    @Test
    void anOlderCatalogIsNotMigratedWithoutTheSetting() throws Exception {
        LakeTopic setup = LakeTopic.create("older", 1);
        LegacyDuckDb.onLake(setup.lake(), List.of("CREATE TABLE lake.main.events (id BIGINT)",
                "INSERT INTO lake.main.events VALUES (1)")).orThrow();
        Path log = Path.of("target", "e2e-logs", "startup-catalog-" + setup.topic() + ".log");
        try (AppProcess app = AppProcess.start(setup.environment(), log)) {
            assertThat(app.waitForExit(Duration.ofSeconds(90))).as(app.logTail()).isNotZero();
            String text = app.logText();
            assertThat(text.lines().filter(l -> l.contains("is format version 0.3, older than the 1.0")
                    && l.contains("Set MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION=true")).count())
                    .as(app.logTail()).isEqualTo(1);
        }
        try (Connection catalog = Services.postgres().connect(setup.lake().catalogDatabase());
             Statement s = catalog.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT value FROM public.ducklake_metadata WHERE key = 'version'")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("0.3");
        }
    }

    static Stream<Arguments> hoglakeEnvironments() {
        return Stream.of(
                Arguments.of("HOGLAKE_CATALOG", "Bad", "HOGLAKE_CATALOG 'Bad' is not a valid hoglake catalog name"),
                Arguments.of("MILLPOND_VARIANT_COLUMNS", "properties", "MILLPOND_VARIANT_COLUMNS is DuckLake-only"),
                Arguments.of("HOGLAKE_MAX_RETRY_COUNT", "20", "past the 480s liveness deadline"),
                // A valid group whose control plane is not there: one line naming the catalog, URL and the fix.
                Arguments.of("HOGLAKE_TABLE", "events", "check HOGLAKE_URL and that the control plane is up"));
    }

    @ParameterizedTest(name = "hoglake {0}={1}")
    @MethodSource("hoglakeEnvironments")
    void hoglakeFailsStartupAfterValidatingItsGroup(String variable, String value, String expected) throws Exception {
        LakeTopic setup = LakeTopic.create("hog", 1);
        Map<String, String> env = setup.environment("REPLICA_COUNT", "1",
                "POD_NAME", "millpond-0");
        env.put("MILLPOND_DESTINATION", "hoglake");
        env.put("HOGLAKE_URL", "http://127.0.0.1:9");
        env.put("HOGLAKE_CATALOG", "millpond");
        env.put("HOGLAKE_NAMESPACE", "analytics");
        env.put("HOGLAKE_TABLE", "events");
        // No waiting for the unreachable control plane: its outage budget off, the first failure ends startup.
        env.put("MILLPOND_SINK_OUTAGE_BUDGET_S", "0");
        env.put(variable, value);
        Path log = Path.of("target", "e2e-logs", "startup-hoglake-" + variable + "-" + setup.topic() + ".log");
        try (AppProcess app = AppProcess.start(env, log)) {
            int code = app.waitForExit(Duration.ofSeconds(90));
            assertThat(code).as(app.logTail()).isNotZero();
            assertThat(app.logText().lines().filter(l -> l.contains(expected)).count()).as(app.logTail())
                    .isEqualTo(1);
        }
    }
}
