package dev.millpond.maintenance;

import dev.millpond.config.ConfigLoader;
import dev.millpond.ducklake.CatalogLocation;
import dev.millpond.ducklake.LakeAttachment;
import dev.millpond.testsupport.DuckDbExtensions;
import dev.millpond.testsupport.Postgres;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.TestCertificateAuthority;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DUCKLAKE_RDS_SSLMODE and DUCKLAKE_RDS_SSLROOTCERT against a real Postgres that accepts TLS connections only
 * ({@code hostssl}), on both ways the image reaches the catalog: the DuckDB attachment (the writer, and the tools'
 * lake session) and the tools' own JDBC session. {@code require} and {@code verify-full} (with the CA that signed the
 * server's certificate) connect over TLS; {@code verify-full} with another CA and {@code disable} are refused.
 */
@ServiceBacked
class CatalogTlsTest {

    private static Path directory;
    private static TestCertificateAuthority ca;
    private static TestCertificateAuthority otherCa;
    private static Postgres server;

    @BeforeAll
    static void aServerThatDemandsTls() throws Exception {
        directory = Files.createTempDirectory("catalog-tls");
        Path caDir = Files.createDirectories(directory.resolve("ca"));
        Path otherDir = Files.createDirectories(directory.resolve("other-ca"));
        ca = TestCertificateAuthority.create(caDir, "millpond catalog test CA");
        otherCa = TestCertificateAuthority.create(otherDir, "some other CA");
        TestCertificateAuthority.ServerPem pem = ca.issueServerPem();
        server = Postgres.startWithTls(pem.certificate(), pem.key(), true);
        server.createDatabase("tls_lake");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static Map<String, String> env(String sslMode, Optional<Path> rootCert) {
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9");
        env.put("KAFKA_TOPIC", "events");
        env.put("REPLICA_COUNT", "1");
        env.put("POD_NAME", "millpond-0");
        env.put("DUCKLAKE_TABLE", "events");
        env.put("DUCKLAKE_CONNECTION", ":memory:");
        env.put("DUCKLAKE_DATA_PATH", directory.resolve("data").toAbsolutePath() + "/");
        env.put("DUCKLAKE_RDS_HOST", server.host());
        env.put("DUCKLAKE_RDS_PORT", String.valueOf(server.port()));
        env.put("DUCKLAKE_RDS_DATABASE", "tls_lake");
        env.put("DUCKLAKE_RDS_USERNAME", server.user());
        env.put("DUCKLAKE_RDS_PASSWORD", server.password());
        env.put("DUCKLAKE_RDS_SSLMODE", sslMode);
        rootCert.ifPresent(p -> env.put("DUCKLAKE_RDS_SSLROOTCERT", p.toString()));
        env.put("DUCKDB_S3_ACCESS_KEY_ID", "unused");
        env.put("DUCKDB_S3_SECRET_ACCESS_KEY", "unused-secret");
        env.put("MILLPOND_DUCKDB_EXTENSION_DIR", DuckDbExtensions.directory().toAbsolutePath().toString());
        return env;
    }

    /** The writer's attachment, built as the writer builds it from its configuration. */
    private static Connection writerAttachment(Map<String, String> env) throws SQLException {
        var lake = ConfigLoader.load(env).ducklake();
        return new LakeAttachment(lake.connection(), CatalogLocation.Postgres.of(lake.catalog()), lake.dataPath(),
                List.of(), 10, Optional.empty(), DuckDbExtensions.directory(), false).open();
    }

    private static boolean overTls(Connection catalog) throws SQLException {
        try (Statement s = catalog.createStatement();
             ResultSet rs = s.executeQuery("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")) {
            assertThat(rs.next()).isTrue();
            return rs.getBoolean(1);
        }
    }

    @Test
    void requireConnectsOverTlsOnEveryPath() throws Exception {
        Map<String, String> env = env("require", Optional.empty());
        try (Connection writer = writerAttachment(env)) {
            assertThat(writer.isValid(5)).isTrue();
        }
        try (LakeSession tools = LakeSession.open(MaintenanceSettings.fromEnvironment(env), "tls-test")) {
            assertThat(overTls(tools.catalog())).as("the tools' JDBC session uses TLS").isTrue();
        }
    }

    @Test
    void verifyFullConnectsWithTheServersCaAndIsRefusedWithAnother() throws Exception {
        Map<String, String> right = env("verify-full", Optional.of(ca.caPem()));
        try (Connection writer = writerAttachment(right)) {
            assertThat(writer.isValid(5)).isTrue();
        }
        try (LakeSession tools = LakeSession.open(MaintenanceSettings.fromEnvironment(right), "tls-test")) {
            assertThat(overTls(tools.catalog())).isTrue();
        }

        Map<String, String> wrong = env("verify-full", Optional.of(otherCa.caPem()));
        assertThatThrownBy(() -> writerAttachment(wrong).close()).as("the writer refuses an unknown certificate")
                .isInstanceOf(SQLException.class).hasMessageContaining("certificate");
        assertThatThrownBy(() -> LakeSession.openCatalog(MaintenanceSettings.fromEnvironment(wrong), "tls-test"))
                .as("the tools refuse an unknown certificate").isInstanceOf(SQLException.class);
    }

    @Test
    void disableIsRefusedByAServerThatDemandsTls() {
        Map<String, String> env = env("disable", Optional.empty());
        assertThatThrownBy(() -> writerAttachment(env).close()).isInstanceOf(SQLException.class)
                .hasMessageContaining("no pg_hba.conf entry").hasMessageContaining("no encryption");
        assertThatThrownBy(() -> LakeSession.openCatalog(MaintenanceSettings.fromEnvironment(env), "tls-test"))
                .isInstanceOf(SQLException.class).hasMessageContaining("no pg_hba.conf entry");
    }
}
