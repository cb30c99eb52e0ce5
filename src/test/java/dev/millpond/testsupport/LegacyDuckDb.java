package dev.millpond.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * DuckDB 1.4.4 — the release this project's earlier builds ran, which writes DuckLake catalog format 0.3 — run in a
 * JVM of its own (its JNI library and the current one cannot share a process), to make and read catalogs as those
 * builds did. The build copies the driver into {@code target/duckdb-legacy} and provisions its extensions
 * (pom.xml, {@code src/test/scripts/provision-legacy-duckdb-extensions.sh}).
 */
public final class LegacyDuckDb {

    private static final long TIMEOUT_SECONDS = 120;

    private LegacyDuckDb() {
    }

    /** What the legacy JVM printed: one tab-separated line per result row; the error, if a statement failed. */
    public record Result(int exitCode, List<String> rows, String errors) {
        public Result orThrow() {
            if (exitCode != 0) {
                throw new IllegalStateException("DuckDB 1.4.4 failed (exit " + exitCode + "): " + errors);
            }
            return this;
        }
    }

    /** Runs {@code statements} in order on one connection, after loading the extensions and attaching {@code lake}. */
    public static Result onLake(DuckLakeStack lake, List<String> statements) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(lake.sessionSetup());
        all.addAll(statements);
        return run(all);
    }

    /** Runs {@code statements} in order on one connection with the ducklake, httpfs and postgres extensions loaded. */
    public static Result run(List<String> statements) throws IOException, InterruptedException {
        Path jar = Path.of(required("millpond.duckdb.legacy.jar"));
        Path extensions = Path.of(required("millpond.duckdb.legacy.extensions"));
        if (!Files.isRegularFile(jar) || !Files.isDirectory(extensions)) {
            throw new IllegalStateException("DuckDB 1.4.4 is not provisioned (" + jar + ", " + extensions
                    + "); run the build's generate-test-resources phase");
        }
        String classPath = jar.toAbsolutePath() + java.io.File.pathSeparator
                + Path.of(LegacyDuckDb.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classPath, Main.class.getName(), extensions.toAbsolutePath().toString()));
        command.addAll(statements);
        Path out = Files.createTempFile("legacy-duckdb", ".out");
        Path err = Files.createTempFile("legacy-duckdb", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("DuckDB 1.4.4 did not finish in " + TIMEOUT_SECONDS + " s");
            }
            return new Result(p.exitValue(), Files.readAllLines(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set (surefire sets it)");
        }
        return value;
    }

    /**
     * The legacy JVM's entry point: only {@code java.sql} and the legacy driver on its class path. Arguments: the
     * extension directory, then the statements. The first failing statement ends it with its message and exit 1.
     */
    public static final class Main {
        public static void main(String[] args) throws SQLException {
            Properties p = new Properties();
            p.setProperty("extension_directory", args[0]);
            p.setProperty("autoinstall_known_extensions", "false");
            p.setProperty("autoload_known_extensions", "false");
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:", p)) {
                for (String sql : List.of("LOAD httpfs", "LOAD ducklake", "LOAD postgres")) {
                    execute(c, sql);
                }
                for (int i = 1; i < args.length; i++) {
                    execute(c, args[i]);
                }
            } catch (SQLException e) {
                System.err.println(e.getMessage());
                System.exit(1);
            }
        }

        private static void execute(Connection c, String sql) throws SQLException {
            try (Statement s = c.createStatement()) {
                if (s.execute(sql)) {
                    try (ResultSet rs = s.getResultSet()) {
                        int n = rs.getMetaData().getColumnCount();
                        while (rs.next()) {
                            StringBuilder row = new StringBuilder();
                            for (int j = 1; j <= n; j++) {
                                row.append(j > 1 ? "\t" : "").append(rs.getString(j));
                            }
                            System.out.println(row);
                        }
                    }
                }
            }
        }
    }
}
