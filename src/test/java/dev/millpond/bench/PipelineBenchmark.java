package dev.millpond.bench;

import dev.millpond.demo.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.MillpondEnvironment;
import dev.millpond.testsupport.Services;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * End-to-end throughput and memory of the packaged app on the real stack: a KRaft broker, a Postgres catalog and an
 * S3 server (all in this JVM), and millpond as its own process. Prints records/s between the first consumed record
 * and the last written one, and the app's peak RSS (VmHWM). Rerun with {@code ./mvnw -Pbench package}; knobs:
 * {@code -Dbench.events=500000} and {@code -Dbench.args="FLUSH_SIZE=10000000 MILLPOND_LAKE_OFFSETS=false"} for any
 * millpond variable of the app under test.
 */
public final class PipelineBenchmark {

    public static void main(String[] args) throws Exception {
        int events = Integer.getInteger("bench.events", 500_000);
        int partitions = Integer.getInteger("bench.partitions", 8);
        KafkaBroker kafka = Services.kafka();
        DuckLakeStack lake = Services.newDuckLake();
        String topic = Services.uniqueName("bench");
        kafka.createTopic(topic, partitions);
        long producedBytes = 0;
        // -Dbench.poisonEvery=N: every N-th event is malformed JSON instead (N=100: 1 %), to price the rejects table.
        int poisonEvery = Integer.getInteger("bench.poisonEvery", 0);
        long poison = 0;
        int perPartition = events / partitions;
        for (int p = 0; p < partitions; p++) {
            for (int chunk = 0; chunk < perPartition; chunk += 50_000) {
                int n = Math.min(50_000, perPartition - chunk);
                List<byte[]> values = new java.util.ArrayList<>(
                        SampleEvents.events((long) p * perPartition + chunk, n));
                for (int i = 0; poisonEvery > 0 && i < n; i++) {
                    if ((chunk + i) % poisonEvery == poisonEvery - 1) {
                        values.set(i, ("{\"id\":" + ((long) p * perPartition + chunk + i) + ", broken")
                                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        poison++;
                    }
                }
                for (byte[] v : values) {
                    producedBytes += v.length;
                }
                kafka.produce(topic, p, values);
            }
        }
        int total = perPartition * partitions;
        long rows = total - poison;
        System.out.printf("[bench] produced %,d events (%,.1f MB of JSON, %,d of them malformed) to %d partitions%n",
                total, producedBytes / 1e6, poison, partitions);

        Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic);
        env.put("FLUSH_SIZE", System.getProperty("bench.flushSize", "104857600"));
        env.put("FLUSH_INTERVAL_MS", System.getProperty("bench.flushIntervalMs", "1000"));
        System.getProperties().stringPropertyNames().stream().filter(k -> k.startsWith("bench.env."))
                .forEach(k -> env.put(k.substring("bench.env.".length()), System.getProperty(k)));
        // From `./mvnw -Pbench package -Dbench.args="NAME=value …"` (Maven passes them as program arguments).
        for (String arg : args) {
            for (String pair : arg.trim().split("\\s+")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    env.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
        }
        System.out.println("[bench] app environment overrides: " + java.util.Arrays.toString(args));
        Path log = Path.of("target", "bench", topic + ".log");
        Files.createDirectories(log.getParent());
        AtomicLong firstConsumedNanos = new AtomicLong();
        try (AppProcess app = AppProcess.start(env, log)) {
            app.await("first record consumed", Duration.ofMinutes(2), () -> {
                boolean started = app.metric("millpond_records_consumed_total").orElse(0) > 0;
                if (started) {
                    firstConsumedNanos.set(System.nanoTime());
                }
                return started;
            });
            app.await("every record written", Duration.ofMinutes(30),
                    () -> app.metric("millpond_records_written_total").orElse(0) >= rows);
            double seconds = (System.nanoTime() - firstConsumedNanos.get()) / 1e9;
            String metrics = app.metrics();
            double flushes = AppProcess.metricIn(metrics, "millpond_flush_duration_seconds_count").orElse(0);
            double flushSeconds = AppProcess.metricIn(metrics, "millpond_flush_duration_seconds_sum").orElse(0);
            long rssKb = peakRssKb(app);
            System.out.printf("[bench] %,d records in %.2fs = %,.0f records/s (%,.1f MB/s of JSON)%n", total, seconds,
                    total / seconds, producedBytes / 1e6 / seconds);
            System.out.printf("[bench] flushes: %.0f, mean write %.3fs; peak RSS of the app: %,d MB%n", flushes,
                    flushes > 0 ? flushSeconds / flushes : 0, rssKb / 1024);
            app.stop(Duration.ofSeconds(60));
        }
        System.exit(0);
    }

    static long peakRssKb(AppProcess app) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(app.pid()), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (Exception e) {
            System.out.println("[bench] cannot read RSS: " + e);
        }
        return -1;
    }
}
