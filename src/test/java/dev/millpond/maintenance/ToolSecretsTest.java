package dev.millpond.maintenance;

import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.FaultRelay;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The image's command-line tools, run as processes the way a CronJob and the exporter Deployment run them, with the
 * catalog behind a {@link FaultRelay} that is cut off in the middle of their work: what they print on stdout and
 * stderr while DuckDB and the JDBC driver fail carries no password. Each run also shows that the failure path
 * really printed the connection string, masked (a check that could not see a leak would prove nothing).
 */
@ServiceBacked
class ToolSecretsTest {

    private static final Duration PATIENCE = Duration.ofSeconds(120);

    private MaintenanceFixture lake;
    private FaultRelay catalog;
    private String password;
    private Map<String, String> env;
    private final List<Process> processes = new ArrayList<>();
    private Path logs;

    @BeforeEach
    void aLakeBehindARelayWithAPasswordOfItsOwn() throws Exception {
        lake = new MaintenanceFixture();
        for (int i = 0; i < 4; i++) {
            lake.flush(200, 64);
        }
        password = "Pw-" + UUID.randomUUID();
        String role = Services.uniqueName("tool_role");
        try (Connection c = Services.postgres().connect("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + role + " LOGIN SUPERUSER PASSWORD '" + password + "'");
        }
        catalog = FaultRelay.start("tool-catalog", Services.postgres().host(), Services.postgres().port());
        env = new java.util.HashMap<>(lake.env);
        env.put("DUCKLAKE_RDS_HOST", catalog.host());
        env.put("DUCKLAKE_RDS_PORT", String.valueOf(catalog.port()));
        env.put("DUCKLAKE_RDS_USERNAME", role);
        env.put("DUCKLAKE_RDS_PASSWORD", password);
        logs = Files.createTempDirectory("tool-secrets");
    }

    @AfterEach
    void tearDown() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        catalog.close();
        lake.close();
    }

    private record Output(Path out, Path err) {
        String stdout() throws IOException {
            return Files.readString(out, StandardCharsets.UTF_8);
        }

        String stderr() throws IOException {
            return Files.readString(err, StandardCharsets.UTF_8);
        }
    }

    /**
     * The tool's main in a JVM of its own, started as {@code tools/ducklake-maintenance} starts it (same flags, and
     * without the JBoss LogManager, which the image's tool class path leaves out too), with this test's class path
     * and only {@link #env} as environment.
     */
    private Output start(String name, String main, String... args) throws IOException {
        String classPath = String.join(java.io.File.pathSeparator, java.util.Arrays.stream(
                System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .filter(entry -> !entry.contains("jboss-logmanager")).toList());
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Dorg.jboss.logging.provider=jdk",
                "-Xmx256m", "-cp", classPath, main));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().keySet().removeIf(k -> !k.equals("PATH") && !k.equals("HOME") && !k.equals("JAVA_HOME"));
        pb.environment().putAll(env);
        Output output = new Output(logs.resolve(name + ".out"), logs.resolve(name + ".err"));
        pb.redirectOutput(output.out().toFile());
        pb.redirectError(output.err().toFile());
        processes.add(pb.start());
        return output;
    }

    private Process last() {
        return processes.get(processes.size() - 1);
    }

    private static void await(String what, Output output, Predicate<String> stderr) {
        Await.within(PATIENCE, what).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                assertThat(stderr.test(output.stderr())).as("waiting for %s; stderr so far:%n%s", what, output.stderr())
                        .isTrue());
    }

    private void assertNoPassword(Output output) throws IOException {
        assertThat(output.stdout()).as("stdout").doesNotContain(password);
        assertThat(output.stderr()).as("stderr").doesNotContain(password);
        assertThat(output.stderr()).as("stderr").doesNotContain(password.substring(3, 20));
    }

    /**
     * The CLI cut off mid-command: the moment the command holds the maintenance lock (seen directly on the catalog,
     * so the lake is attached and the answer is still in the slowed relay), the catalog stops taking connections and
     * DuckDB's idle ones are ended on the server; the CHECKPOINT that follows needs a new catalog connection, which
     * fails — where DuckDB prints the libpq string.
     */
    @Test
    void theMaintenanceCliCutOffMidCommandPrintsNoPassword() throws Exception {
        catalog.delay(Duration.ofMillis(50));
        Output output = start("checkpoint", "dev.millpond.maintenance.cli.MaintenanceCli", "checkpoint");
        try (Connection direct = Services.postgres().connect(lake.lake.catalogDatabase())) {
            Await.within(PATIENCE, "the CLI takes the maintenance lock").pollInterval(Duration.ofMillis(5))
                    .untilAsserted(() -> assertThat(queryLong(direct,
                            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"))
                            .as("advisory locks held; stderr:%n%s", output.stderr()).isPositive());
            catalog.refuseNewConnections();
            try (Statement s = direct.createStatement()) {
                s.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '"
                        + env.get("DUCKLAKE_RDS_USERNAME") + "' AND application_name NOT LIKE 'millpond-maintenance%'"
                        + " AND pid <> pg_backend_pid()");
            }
        }
        assertThat(last().waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the CLI exits").isTrue();
        System.out.println("[tool-secrets] checkpoint exit " + last().exitValue() + "\n" + output.stderr());
        assertThat(last().exitValue()).as("the command failed").isEqualTo(1);
        assertNoPassword(output);
        assertThat(output.stderr()).as("DuckDB's connection string was printed, masked")
                .contains("ducklake-maintenance checkpoint failed: ").contains("password='***'");
    }

    private static long queryLong(Connection c, String sql) throws java.sql.SQLException {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void theMetricsExporterWithItsCatalogGoneMidRunPrintsNoPassword() throws Exception {
        catalog.delay(Duration.ofMillis(30));
        Output output = start("exporter", "dev.millpond.maintenance.metrics.CatalogMetricsCli", "--tenant", "t1",
                "--once");
        await("the connection", output, err -> err.contains("Connected to the lake"));
        catalog.stop();
        assertThat(last().waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the exporter exits").isTrue();
        System.out.println("[tool-secrets] exporter exit " + last().exitValue() + "\n" + output.stderr());
        assertNoPassword(output);
        assertThat(output.stderr()).as("the failures were reported, DuckDB's connection string masked")
                .contains("Query ").contains("failed").contains("password='***'");
    }
}
