package dev.millpond.app;

import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.LakeTopic;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code java -jar target/quarkus-app/quarkus-run.jar}, the way every Quarkus application is started, with no JVM
 * option at all: the runnable jar's manifest must carry what Arrow (java.nio opened) and DuckDB (native access) need.
 * Without it Arrow's memory layer fails to initialise at the first allocation and the pump dies with its stack trace.
 * DuckDB's library is loaded from beside its jar, where the build put it, with no option either.
 */
class PlainJavaJarIT {

    static final Path LOGS = Path.of("target", "e2e-logs");

    @Test
    void landsEventsStartedAsJavaDashJarWithNoOptions() throws Exception {
        LakeTopic setup = LakeTopic.create("javajar", 2);
        int perPartition = 150;
        for (int p = 0; p < 2; p++) {
            setup.produce(p, SampleEvents.events((long) p * perPartition, perPartition));
        }
        Map<String, String> env = setup.environment("FLUSH_INTERVAL_MS", "1000");
        try (AppProcess app = AppProcess.start(env, LOGS.resolve(setup.topic() + ".log"), List.of())) {
            assertThat(commandLine(app.pid())).as("the launched command")
                    .containsExactly(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                            AppProcess.jar().toAbsolutePath().toString());

            app.awaitCommittedToEnd(setup.kafka(), setup.topic(), "millpond-" + setup.topic() + "-events",
                    Duration.ofMinutes(3));
            assertThat(mappedDuckDbLibraries(app.pid())).as("DuckDB's library as the process mapped it")
                    .containsExactly(AppProcess.jar().toRealPath().getParent()
                            .resolve("lib/main/libduckdb_java.so_linux_amd64").toString());
            assertThat(app.stop(Duration.ofSeconds(120))).as(app.logTail()).isZero();
            String log = app.logText();
            assertThat(log).as(app.logTail()).doesNotContain("MemoryUtil").doesNotContain("add-opens")
                    .doesNotContain("Fatal error");
        }
        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id) FROM lake.main.events")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(2L * perPartition);
            assertThat(rs.getLong(2)).isEqualTo(2L * perPartition);
        }
    }

    @Test
    void aMissingVariableIsStillOneLineWithNoStackTrace() throws Exception {
        LakeTopic setup = LakeTopic.create("javajar-bad", 1);
        Map<String, String> env = setup.environment();
        env.remove("DUCKLAKE_RDS_PASSWORD");
        try (AppProcess app = AppProcess.start(env, LOGS.resolve(setup.topic() + ".log"), List.of())) {
            assertThat(app.waitForExit(Duration.ofSeconds(90))).as(app.logTail()).isNotZero();
            String log = app.logText();
            assertThat(log.lines().filter(l -> l.contains("Required environment variable DUCKLAKE_RDS_PASSWORD is not"
                    + " set")).count()).as(app.logTail()).isEqualTo(1);
            assertThat(log.lines().filter(l -> l.startsWith("\tat ") || l.startsWith("Caused by"))).as(app.logTail())
                    .isEmpty();
        }
    }

    /**
     * The files of DuckDB's JNI library the process has mapped ({@code /proc/<pid>/maps}): the one the build placed
     * beside the driver's jar, not a copy the driver unpacked into /tmp (58 MiB per start, left behind by every kill).
     */
    private static List<String> mappedDuckDbLibraries(long pid) throws Exception {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "maps")).stream()
                .map(line -> line.split("\\s+", 6))
                .filter(fields -> fields.length == 6 && fields[5].contains("libduckdb_java"))
                .map(fields -> fields[5])
                .distinct()
                .toList();
    }

    /** The process's arguments as the kernel holds them ({@code /proc/<pid>/cmdline}, NUL-separated). */
    private static List<String> commandLine(long pid) throws Exception {
        String raw = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                StandardCharsets.UTF_8);
        return Arrays.asList(raw.split("\0"));
    }
}
