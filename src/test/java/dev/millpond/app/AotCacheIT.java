package dev.millpond.app;

import dev.millpond.bench.AotTraining;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.LakeTopic;
import dev.millpond.testsupport.PodShape;
import dev.millpond.testsupport.events.SampleEvents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The image's fast start, as its build makes it: {@link AotTraining} trains the packaged app's AOT cache on JDK 25
 * against the real broker and lake with the image's {@code JAVA_OPTS}, and the app started as the entrypoint starts it
 * ({@code $JAVA_OPTS_AOT $JAVA_OPTS}) takes the cache: nearly every class it loads, the application's and its
 * libraries' included, comes from the cache rather than from a jar, and it lands its records. A packaging whose
 * classes are not on the JVM's own class path (Quarkus's fast-jar) or a cache the JVM refuses fails here.
 *
 * <p>Needs a JDK 25 or later ({@code -Dmillpond.test.jdk25=<home>}, else the first one under /usr/lib/jvm): the image's
 * runtime; without one it is skipped and says so.
 */
class AotCacheIT {

    static final Path LOGS = Path.of("target", "e2e-logs");

    private final String appJavaBefore = System.getProperty("millpond.app.java");

    @AfterEach
    void restoreTheTestsJdk() {
        if (appJavaBefore == null) {
            System.clearProperty("millpond.app.java");
        } else {
            System.setProperty("millpond.app.java", appJavaBefore);
        }
    }

    @Test
    void theTrainedCacheIsTakenAndTheAppLandsItsRecords() throws Exception {
        Optional<Path> jdk = jdk25();
        Assumptions.assumeTrue(jdk.isPresent(), "no JDK 25 or later on this machine (-Dmillpond.test.jdk25=<home>):"
                + " the image's AOT cache cannot be trained here");
        PodShape pod = PodShape.read(Path.of(""));
        String aotOption = pod.imageEnvironment().get("JAVA_OPTS_AOT");
        assertThat(aotOption).as("the image's JAVA_OPTS_AOT").startsWith("-XX:AOTCache=/deployments/");
        Path app = AppProcess.jar().toAbsolutePath().getParent();
        Path cache = Files.createTempDirectory(LOGS.toAbsolutePath().getParent(), "aot-").resolve("app.aot");

        LakeTopic setup = LakeTopic.create("aotcache", 2);
        AotTraining.train(setup.kafka(), setup.lake(), app, cache, jdk.get().toString(), pod.jvmOptions(),
                pod.memoryLimitBytes(), 16_000, pod.processEnvironment());

        int perPartition = 200;
        for (int p = 0; p < 2; p++) {
            setup.produce(p, SampleEvents.events((long) p * perPartition, perPartition));
        }
        Path classLog = LOGS.resolve(setup.topic() + "-classes.log").toAbsolutePath();
        Files.deleteIfExists(classLog);
        List<String> jvm = new ArrayList<>();
        jvm.add(aotOption.replace("/deployments/app.aot", cache.toString()));
        jvm.addAll(pod.jvmOptions());
        jvm.add("-Xlog:class+load=info:file=" + classLog);
        System.setProperty("millpond.app.java", jdk.get().toString());
        Map<String, String> env = setup.environment("FLUSH_INTERVAL_MS", "1000");
        try (AppProcess process = AppProcess.start(env, LOGS.resolve(setup.topic() + ".log"), jvm)) {
            process.awaitCommittedToEnd(setup.kafka(), setup.topic(), "millpond-" + setup.topic() + "-events",
                    Duration.ofMinutes(3));
            assertThat(process.stop(Duration.ofSeconds(120))).as(process.logTail()).isZero();
            assertThat(process.logText()).as("the JVM's word on the cache").doesNotContain("[aot]");
        }

        List<String> loaded = Files.readAllLines(classLog).stream().filter(l -> l.contains(" source: ")).toList();
        long fromCache = loaded.stream().filter(l -> l.endsWith("source: shared objects file")).count();
        assertThat(fromCache).as("classes from the cache, of %d loaded", loaded.size())
                .isGreaterThan(loaded.size() * 9L / 10);
        for (String name : List.of("dev.millpond.pump.Pump", "org.apache.kafka.clients.consumer.KafkaConsumer",
                "org.apache.arrow.vector.VarCharVector", "org.duckdb.DuckDBConnection")) {
            assertThat(loaded).as(name).anyMatch(l -> l.contains("] " + name + " source: shared objects file"));
        }
        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM lake.main.events")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(2L * perPartition);
        }
    }

    /** A JDK of release 25 or later: the one named, else the first under /usr/lib/jvm. */
    private static Optional<Path> jdk25() throws IOException {
        String named = System.getProperty("millpond.test.jdk25", "");
        if (!named.isBlank()) {
            return Optional.of(Path.of(named));
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(h -> Files.isRegularFile(h.resolve("release")) && Files.isExecutable(h.resolve("bin/java")))
                    .filter(h -> {
                        try {
                            return AotTraining.javaFeature(h) >= 25;
                        } catch (Exception e) {
                            return false;
                        }
                    })
                    .sorted()
                    .findFirst();
        }
    }
}
