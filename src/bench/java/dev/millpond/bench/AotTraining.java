package dev.millpond.bench;

import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.MillpondEnvironment;
import dev.millpond.testsupport.PodShape;
import dev.millpond.testsupport.Services;
import dev.millpond.testsupport.events.Corpus;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The training run of the JDK's ahead-of-time cache (JDK 25: {@code -XX:AOTCacheOutput}, JEPs 483, 514 and 515): the
 * packaged app, on the JDK that will run it, consumes a PostHog-shaped corpus from a real broker and writes it to a
 * real DuckLake (PostgreSQL catalog, parquet on the S3 server), as a pod does; at its exit the JVM writes the classes
 * it loaded and linked, and the profiles of the methods it ran, to the cache. A later start with
 * {@code -XX:AOTCache=<file>} maps them instead of loading, verifying and profiling again (docs/performance.md,
 * "Startup"). The cache is only taken by the same JDK build with the same class path (same paths, same jars), which is
 * why the image trains inside its own runtime stage, at {@code /deployments}; anything else makes the JVM say so and
 * start without it.
 *
 * <p>Properties: {@code aot.app} (the packaged app's folder, default {@code target/quarkus-app}), {@code aot.output}
 * (default {@code <aot.app>/app.aot}), {@code aot.java} (the JDK, 25 or later; default the one running this),
 * {@code aot.jvm} (the app's JVM options; default the image's {@code JAVA_OPTS} from src/main/docker/Dockerfile.jvm:
 * the module options the cache records must be the ones the pod runs with), {@code aot.memoryLimit} (bytes the heap
 * and the app's budget are sized from, as in the pod; default the StatefulSet's limit), {@code aot.events} (default
 * 200,000).
 */
public final class AotTraining {

    private AotTraining() {
    }

    public static void main(String[] args) {
        try {
            train();
            System.exit(0);
        } catch (Throwable e) {
            // The broker, catalog and S3 server run on non-daemon threads: exit, or the build hangs on them.
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void train() throws Exception {
        Path app = Path.of(System.getProperty("aot.app", "target/quarkus-app")).toAbsolutePath();
        Path output = Path.of(System.getProperty("aot.output", app.resolve("app.aot").toString())).toAbsolutePath();
        String javaHome = System.getProperty("aot.java", "").isBlank() ? System.getProperty("java.home")
                : System.getProperty("aot.java");
        Path projectRoot = Path.of("");
        PodShape pod = Files.exists(projectRoot.resolve("src/main/docker/Dockerfile.jvm")) ? PodShape.read(projectRoot)
                : null;
        String jvmText = System.getProperty("aot.jvm", "");
        List<String> jvm = jvmText.isBlank() && pod != null ? pod.jvmOptions()
                : Arrays.asList(jvmText.trim().split("\\s+"));
        long memoryLimit = Long.getLong("aot.memoryLimit", pod != null ? pod.memoryLimitBytes() : 1L << 30);
        Map<String, String> imageEnvironment = pod != null ? pod.processEnvironment() : Map.of();
        train(Services.kafka(), Services.newDuckLake(), app, output, javaHome, jvm, memoryLimit,
                Integer.getInteger("aot.events", 200_000), imageEnvironment);
    }

    /**
     * Trains {@code app}'s cache into {@code output} on the JDK at {@code javaHome} with these JVM options, the heap
     * and the app's memory budget sized from {@code memoryLimit} as in a pod of that limit.
     */
    public static void train(KafkaBroker kafka, DuckLakeStack lake, Path app, Path output, String javaHome, List<String> jvm,
                      long memoryLimit, int events, Map<String, String> imageEnvironment) throws Exception {
        int feature = javaFeature(Path.of(javaHome));
        if (feature < 25) {
            throw new IllegalStateException("The AOT cache needs JDK 25 or later (JEPs 483, 514, 515); " + javaHome
                    + " is JDK " + feature + ". Give the image's JDK with -Daot.java=<JDK home>.");
        }
        Files.deleteIfExists(output);
        List<String> options = new ArrayList<>(jvm);
        // The heap sized as in the pod (MaxRAMPercentage of the limit), not of this machine's memory.
        options.add("-XX:MaxRAM=" + memoryLimit);
        options.add("-XX:AOTCacheOutput=" + output);
        String jarBefore = System.getProperty("millpond.app.jar");
        String javaBefore = System.getProperty("millpond.app.java");
        System.setProperty("millpond.app.jar", app.resolve("quarkus-run.jar").toString());
        System.setProperty("millpond.app.java", javaHome);
        try {
            String topic = Services.uniqueName("aot-training");
            int partitions = 8;
            kafka.createTopic(topic, partitions);
            long bytes = PipelineBenchmark.produce(kafka, topic, partitions, events / partitions,
                    Corpus.named("posthog"), "none");
            produceUnparseable(kafka, topic, partitions);
            int total = events / partitions * partitions;
            System.out.printf("[aot] produced %,d PostHog-shaped events (%,.1f MB) and %d unparseable ones; training"
                    + " %s on JDK %d (%s) with %s%n", total, bytes / 1e6, partitions, app, feature, javaHome, options);
            // Its own table: the lake may be a caller's (the benchmark's, a test's) with an `events` table of its own.
            Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic, "FLUSH_INTERVAL_MS", "2000",
                    "MILLPOND_MEMORY_LIMIT", Long.toString(memoryLimit), "DUCKLAKE_TABLE", "aot_training");
            imageEnvironment.forEach(env::putIfAbsent);
            env.remove("MILLPOND_DUCKDB_EXTENSION_DIR"); // the image's path; AppProcess gives the configured one
            Path log = Path.of(System.getProperty("java.io.tmpdir"), "millpond-aot-training-"
                    + ProcessHandle.current().pid() + "-" + topic + ".log");
            long started = System.nanoTime();
            try (AppProcess process = AppProcess.start(env, log, options)) {
                process.await("every record written or set aside", Duration.ofMinutes(10), Duration.ofSeconds(1),
                        () -> {
                            String metrics = process.metrics();
                            double written = AppProcess.metricIn(metrics, "millpond_records_written_total").orElse(0);
                            double unparseable = AppProcess.metricIn(metrics, "millpond_records_skipped_total",
                                    "reason", "json_parse").orElse(0);
                            return written >= total && unparseable >= partitions;
                        });
                // The JVM writes the cache as it exits (the assembly runs in a child JVM), so give the exit its time.
                int exit = process.stop(Duration.ofMinutes(5));
                if (exit != 0) {
                    throw new IllegalStateException("the training run exited with " + exit + "\n" + process.logTail());
                }
                if (!Files.isRegularFile(output) || Files.size(output) == 0) {
                    throw new IllegalStateException("the JVM wrote no AOT cache at " + output + "\n"
                            + process.logTail());
                }
            }
            System.out.printf("[aot] %s: %,d MiB, trained in %.0fs (log %s)%n", output, Files.size(output) >> 20,
                    (System.nanoTime() - started) / 1e9, log);
        } finally {
            restore("millpond.app.jar", jarBefore);
            restore("millpond.app.java", javaBefore);
        }
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    /** The JDK's feature release, from its {@code release} file ({@code JAVA_VERSION="25.0.3"}). */
    public static int javaFeature(Path javaHome) throws Exception {
        for (String line : Files.readAllLines(javaHome.resolve("release"))) {
            if (line.startsWith("JAVA_VERSION=")) {
                String v = line.substring(line.indexOf('"') + 1, line.lastIndexOf('"'));
                return Integer.parseInt(v.split("[.+-]")[0]);
            }
        }
        throw new IllegalStateException(javaHome + "/release names no JAVA_VERSION");
    }

    /** One record per partition that is not JSON, so the set-aside path (the rejects table) is trained too. */
    private static void produceUnparseable(KafkaBroker kafka, String topic, int partitions) {
        Map<String, Object> c = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(c)) {
            for (int p = 0; p < partitions; p++) {
                producer.send(new ProducerRecord<>(topic, p, null, ("{\"event\": \"cut off at " + p)
                        .getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }
}
