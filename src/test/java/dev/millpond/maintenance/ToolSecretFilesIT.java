package dev.millpond.maintenance;

import dev.millpond.testsupport.Postgres;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tools/ducklake-maintenance} and {@code tools/ducklake-metrics} over the packaged application with their
 * secrets given as files, as the chart's CronJobs run them with {@code secrets.asFiles=true}: the catalog role must
 * present the file's password, S3 checks the file's key (a compaction reads and writes parquet), and an unreadable file
 * is one line and exit 1.
 */
class ToolSecretFilesIT {

    @TempDir
    Path secrets;

    @Test
    void bothToolsReadTheirSecretsFromFiles() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            for (int i = 0; i < 3; i++) {
                lake.flush(20, 32);
            }
            String role = Services.uniqueName(Postgres.PASSWORD_ROLE_PREFIX);
            String password = "pw-" + UUID.randomUUID();
            try (Connection c = Services.postgres().connect("postgres"); Statement s = c.createStatement()) {
                s.execute("CREATE ROLE " + role + " LOGIN SUPERUSER PASSWORD '" + password + "'");
            }
            Map<String, String> env = new HashMap<>(lake.env);
            env.put("DUCKLAKE_RDS_USERNAME", role);
            env.remove("DUCKLAKE_RDS_PASSWORD");
            String s3Secret = env.remove("DUCKDB_S3_SECRET_ACCESS_KEY");
            env.put("DUCKLAKE_RDS_PASSWORD_FILE", file("DUCKLAKE_RDS_PASSWORD", password + "\n"));
            env.put("DUCKDB_S3_SECRET_ACCESS_KEY_FILE", file("DUCKDB_S3_SECRET_ACCESS_KEY", s3Secret + "\r\n"));

            MaintenanceCliIT.Result compact = MaintenanceCliIT.tool(env, "compact", "--tier", "1");
            assertThat(compact.exit()).as(compact.err()).isZero();
            assertThat(compact.err()).contains("main.events: 3 file(s) -> 1");
            assertThat(lake.liveFileSizes()).hasSize(1);
            assertThat(compact.out() + compact.err()).doesNotContain(password).doesNotContain(s3Secret);

            env.put("DUCKLAKE_TENANT", "events");
            MaintenanceCliIT.Result metrics = run(env, "ducklake-metrics", "--once");
            assertThat(metrics.exit()).as(metrics.err()).isZero();
            assertThat(metrics.out()).contains("ducklake_data_files_files{tenant=\"events\"}");
            assertThat(metrics.out() + metrics.err()).doesNotContain(password).doesNotContain(s3Secret);

            // The control: the same tools with the password's file gone stop at once, naming it.
            env.put("DUCKLAKE_RDS_PASSWORD_FILE", secrets.resolve("gone").toString());
            for (String tool : new String[]{"ducklake-maintenance", "ducklake-metrics"}) {
                MaintenanceCliIT.Result refused = run(env, tool, tool.equals("ducklake-metrics") ? "--once" : "audit");
                assertThat(refused.exit()).as(refused.err()).isEqualTo(1);
                assertThat(refused.err().strip()).as(tool).isEqualTo(tool + " failed: DUCKLAKE_RDS_PASSWORD_FILE: cannot"
                        + " read the secret file " + secrets.resolve("gone") + " (no such file)");
            }
        }
    }

    private String file(String name, String content) throws java.io.IOException {
        return Files.writeString(secrets.resolve(name), content, StandardCharsets.UTF_8).toString();
    }

    private static MaintenanceCliIT.Result run(Map<String, String> env, String tool, String... args) throws Exception {
        if (tool.equals("ducklake-maintenance")) {
            return MaintenanceCliIT.tool(env, args);
        }
        Map<String, String> withMain = new HashMap<>(env);
        // tools/ducklake-metrics is tools/ducklake-maintenance with this main class.
        withMain.put("MILLPOND_TOOL_MAIN", "dev.millpond.maintenance.metrics.CatalogMetricsCli");
        return MaintenanceCliIT.tool(withMain, args);
    }
}
