package dev.millpond.app;

import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.LakeTopic;
import dev.millpond.testsupport.Postgres;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged writer with its secrets given as files ({@code <NAME>_FILE}, a Kubernetes Secret mounted as files): it
 * logs in to a catalog role that must present its password and signs its S3 requests with the key from a file, lands
 * every event, and prints neither secret. The unparseable record's warning carries no payload byte unless asked to.
 */
class SecretFilesIT {

    static final Path LOGS = Path.of("target", "e2e-logs");

    @TempDir
    Path secrets;

    @Test
    void theWriterConnectsWithSecretsFromFilesAndLogsNoPayload() throws Exception {
        LakeTopic setup = LakeTopic.create("secretfiles", 2);
        String marker = "pii-" + UUID.randomUUID();
        List<byte[]> values = new ArrayList<>(SampleEvents.events(0, 100));
        values.add(("{\"email\":\"" + marker + "\"").getBytes(StandardCharsets.UTF_8)); // cut short: unparseable
        setup.produce(0, values);
        setup.produce(1, SampleEvents.events(100, 100));

        // A role that must log in with its password (every other test role is trusted), so the file's is checked.
        String role = Services.uniqueName(Postgres.PASSWORD_ROLE_PREFIX);
        String password = "pw-" + UUID.randomUUID();
        try (Connection c = Services.postgres().connect("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + role + " LOGIN SUPERUSER PASSWORD '" + password + "'");
        }
        Map<String, String> env = setup.environment("FLUSH_INTERVAL_MS", "1000", "DUCKLAKE_RDS_USERNAME", role);
        String s3Secret = env.remove("DUCKDB_S3_SECRET_ACCESS_KEY");
        String s3KeyId = env.remove("DUCKDB_S3_ACCESS_KEY_ID");
        env.remove("DUCKLAKE_RDS_PASSWORD");
        env.put("DUCKLAKE_RDS_PASSWORD_FILE", secretFile("DUCKLAKE_RDS_PASSWORD", password + "\n"));
        env.put("DUCKDB_S3_SECRET_ACCESS_KEY_FILE", secretFile("DUCKDB_S3_SECRET_ACCESS_KEY", s3Secret + "\n"));
        env.put("DUCKDB_S3_ACCESS_KEY_ID_FILE", secretFile("DUCKDB_S3_ACCESS_KEY_ID", s3KeyId));

        try (AppProcess app = AppProcess.start(env, LOGS.resolve(setup.topic() + ".log"))) {
            app.awaitCommittedToEnd(setup.kafka(), setup.topic(), "millpond-" + setup.topic() + "-events",
                    Duration.ofMinutes(3));
            assertThat(app.stop(Duration.ofSeconds(120))).as(app.logTail()).isZero();
            String log = app.logText();
            assertThat(log).as(app.logTail()).doesNotContain(password).doesNotContain(s3Secret)
                    .doesNotContain(marker).contains("Skipping unparseable JSON value");
            assertThat(log.lines().filter(l -> l.contains("Skipping unparseable JSON value")))
                    .singleElement().asString().contains("bytes, not logged");
        }
        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id) FROM lake.main.events")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(200);
            assertThat(rs.getLong(2)).isEqualTo(200);
        }

        // The control: the same record, with the preview asked for, is in the warning.
        LakeTopic loud = LakeTopic.create("secretfiles-preview", 1);
        loud.produce(0, List.of(("{\"email\":\"" + marker + "\"").getBytes(StandardCharsets.UTF_8)));
        try (AppProcess app = AppProcess.start(loud.environment("FLUSH_INTERVAL_MS", "1000",
                "MILLPOND_LOG_PAYLOAD_PREVIEW", "true"), LOGS.resolve(loud.topic() + ".log"))) {
            app.awaitLog("Skipping unparseable JSON value", Duration.ofMinutes(2));
            assertThat(app.stop(Duration.ofSeconds(120))).as(app.logTail()).isZero();
            assertThat(app.logText()).as(app.logTail()).contains(marker);
        }
    }

    private String secretFile(String name, String content) throws java.io.IOException {
        return Files.writeString(secrets.resolve(name), content, StandardCharsets.UTF_8).toString();
    }
}
