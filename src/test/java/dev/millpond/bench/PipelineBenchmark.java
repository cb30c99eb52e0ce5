package dev.millpond.bench;

import dev.millpond.demo.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.MillpondEnvironment;
import dev.millpond.testsupport.Services;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * End-to-end throughput and memory of the packaged app on the real stack: a KRaft broker, a Postgres catalog and an
 * S3 server (all in this JVM), and millpond as its own process, draining a backlog produced beforehand.
 *
 * <p>Prints: records/s and MB/s from the first consumed record to the last written one (and the steady rate, up to
 * the last size-triggered flush, which leaves out the tail's wait for the time trigger); a bare {@code KafkaConsumer}'s
 * drain rate of the same topic and the ratio; the per-flush phase times from the app's {@code Flush:} lines (poll,
 * convert, stages, unify, sort, write, commit); the app's RSS sampled from /proc (peak and the median once the first
 * flush is done); and the app's GC pause time. Run with {@code ./mvnw -B -Pbench package}. Knobs:
 * <ul>
 *   <li>{@code -Dbench.events=1000000}, {@code -Dbench.partitions=8};</li>
 *   <li>{@code -Dbench.corpus=posthog} (default: ~1.18 KB PostHog-shaped events, {@link PostHogEvents}) or
 *       {@code small} (~310-byte events, {@link SampleEvents});</li>
 *   <li>{@code -Dbench.jvm="-Xmx614m"}: the app's JVM options (default: the image's for a 1 GiB limit);</li>
 *   <li>{@code -Dbench.args="FLUSH_SIZE=10000000 MILLPOND_LAKE_OFFSETS=false"}: any variable of the app under test
 *       (defaults: {@code FLUSH_INTERVAL_MS=5000}, {@code MILLPOND_MEMORY_LIMIT=1Gi} as the pod's limit and the
 *       image's {@code MALLOC_ARENA_MAX=2}).</li>
 * </ul>
 */
public final class PipelineBenchmark {

    /**
     * The JVM options of {@code src/main/docker/Dockerfile.jvm} as they work out in a 1 GiB container: the heap is
     * 20 % of the limit (there is no cgroup here for {@code MaxRAMPercentage} to read, so it is spelled out).
     */
    static final String IMAGE_JVM_OPTIONS = "-Xmx205m -XX:+UseSerialGC -Djdk.nio.maxCachedBufferSize=262144";

    private static final Pattern FLUSH_LINE = Pattern.compile("Flush: (\\d+) records, (\\d+) bytes.*?elapsed=([0-9.]+)s"
            + "(?: \\(poll=([0-9.]+)s convert=([0-9.]+)s stages=([0-9.]+)s unify=([0-9.]+)s sort=([0-9.]+)s"
            + " write=([0-9.]+)s commit=([0-9.]+)s(?: wait=([0-9.]+)s)?\\))?");
    /** {@code wait} (the pump standing still for an overlapped write) is only logged by builds that overlap. */
    private static final String[] PHASES = {"poll", "convert", "stages", "unify", "sort", "write", "commit", "wait"};

    public static void main(String[] args) throws Exception {
        int events = Integer.getInteger("bench.events", 1_000_000);
        int partitions = Integer.getInteger("bench.partitions", 8);
        boolean small = System.getProperty("bench.corpus", "posthog").equals("small");
        List<String> jvm = Arrays.asList(System.getProperty("bench.jvm", IMAGE_JVM_OPTIONS).trim().split("\\s+"));
        KafkaBroker kafka = Services.kafka();
        DuckLakeStack lake = Services.newDuckLake();
        String topic = Services.uniqueName("bench");
        kafka.createTopic(topic, partitions);
        int soakMinutes = Integer.getInteger("bench.soakMinutes", 0);
        if (soakMinutes > 0) {
            soak(kafka, lake, topic, partitions, jvm, args, soakMinutes, Integer.getInteger("bench.rate", 10_000));
            System.exit(0);
        }

        int perPartition = events / partitions;
        int total = perPartition * partitions;
        long t0 = System.nanoTime();
        long producedBytes = produce(kafka, topic, partitions, perPartition, small);
        System.out.printf("[bench] produced %,d %s events (%,.1f MB of JSON, %.0f bytes each) to %d partitions in"
                        + " %.1fs%n", total, small ? "small" : "PostHog-shaped", producedBytes / 1e6,
                (double) producedBytes / total, partitions, (System.nanoTime() - t0) / 1e9);
        double bareRate = bareConsumerRate(kafka, topic, partitions, total);

        Map<String, String> env = appEnvironment(kafka, lake, topic, args);
        System.out.println("[bench] app JVM options: " + String.join(" ", jvm) + "; environment overrides: "
                + Arrays.toString(args));
        Path log = Path.of("target", "bench", topic + ".log");
        Files.createDirectories(log.getParent());
        try (AppProcess app = AppProcess.start(env, log, jvm)) {
            measure(app, jvm, total, producedBytes, bareRate);
        }
        System.exit(0);
    }

    private static Map<String, String> appEnvironment(KafkaBroker kafka, DuckLakeStack lake, String topic,
                                                      String[] args) {
        Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic);
        env.put("FLUSH_INTERVAL_MS", "5000");
        env.put("MILLPOND_MEMORY_LIMIT", "1Gi"); // the StatefulSet's limit, which a pod reads from its cgroup
        env.put("MALLOC_ARENA_MAX", "2");        // as the image sets it
        // From `./mvnw -Pbench package -Dbench.args="NAME=value …"` (Maven passes them as program arguments).
        for (String arg : args) {
            for (String pair : arg.trim().split("\\s+")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    env.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
        }
        return env;
    }

    private static void measure(AppProcess app, List<String> jvm, int total, long producedBytes, double bareRate)
            throws Exception {
        RssSampler rss = new RssSampler(app.pid(), jvm.stream().anyMatch(o -> o.startsWith("-XX:NativeMemoryTracking")));
        rss.start();
        long[] first = new long[1];
        app.await("first record consumed", Duration.ofMinutes(2), () -> {
            boolean started = app.metric("millpond_records_consumed_total").orElse(0) > 0;
            if (started) {
                first[0] = System.nanoTime();
            }
            return started;
        });
        List<long[]> progress = new ArrayList<>(); // {nanos, written} at each change
        app.await("every record written", Duration.ofMinutes(30), () -> {
            long written = (long) app.metric("millpond_records_written_total").orElse(0);
            if (written > 0 && (progress.isEmpty() || progress.get(progress.size() - 1)[1] != written)) {
                progress.add(new long[] {System.nanoTime(), written});
                rss.flushed();
            }
            return written >= total;
        });
        double seconds = (System.nanoTime() - first[0]) / 1e9;
        String metrics = app.metrics();
        rss.finish();
        double mb = producedBytes / 1e6;
        System.out.printf("[bench] %,d records in %.2fs = %,.0f records/s (%,.1f MB/s of JSON)%n", total, seconds,
                total / seconds, mb / seconds);
        if (progress.size() >= 2) {
            long[] lastSteady = progress.get(progress.size() - 2);
            double s = (lastSteady[0] - first[0]) / 1e9;
            System.out.printf("[bench] steady (to the last size-triggered flush): %,d records in %.2fs = %,.0f"
                    + " records/s (%,.1f MB/s)%n", lastSteady[1], s, lastSteady[1] / s,
                    mb * lastSteady[1] / total / s);
        }
        System.out.printf("[bench] bare KafkaConsumer on the same topic: %,.0f records/s; app/bare = %.2f%n",
                bareRate, total / seconds / bareRate);
        printFlushes(app.logText());
        System.out.printf("[bench] RSS of the app: peak %,d MiB (VmHWM), steady %,d MiB (median after the first"
                        + " flush), %d samples%n", rss.peakKb() / 1024, rss.steadyKb() / 1024, rss.samples());
        rss.printNativeMemoryAtPeak();
        System.out.printf("[bench] GC: pauses %.2fs in %.0f collections; heap max %,.0f MB%n",
                AppProcess.metricIn(metrics, "jvm_gc_pause_seconds_sum").orElse(-1),
                AppProcess.metricIn(metrics, "jvm_gc_pause_seconds_count").orElse(-1),
                AppProcess.metricIn(metrics, "jvm_memory_max_bytes", "area", "heap").orElse(-1) / 1e6);
        printThreadCpu(app.pid(), total);
        app.stop(Duration.ofSeconds(60));
    }

    /**
     * CPU time of the app's threads so far (user + system, from /proc/<pid>/task/<tid>/stat), summed by thread name:
     * on a shared machine it says more than wall-clock rates do, and it shows which thread is the bottleneck.
     */
    private static void printThreadCpu(long pid, int records) {
        Map<String, Double> byName = new HashMap<>();
        double all = 0;
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    double seconds = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime, stime; 100 Hz
                    byName.merge(name, seconds, Double::sum);
                    all += seconds;
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            System.out.println("[bench] thread CPU: not readable (" + e + ")");
            return;
        }
        StringBuilder b = new StringBuilder(String.format("[bench] app CPU: %.1fs = %.1f us/record; by thread:", all,
                all * 1e6 / records));
        byName.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(6)
                .forEach(e -> b.append(String.format(" %s %.1fs", e.getKey(), e.getValue())));
        System.out.println(b);
    }

    /**
     * {@code -Dbench.soakMinutes=30 -Dbench.rate=10000}: the app consumes while a producer writes PostHog-shaped events
     * at a steady rate; every 30 s one line with the app's RSS, so a leak shows as a trend.
     */
    private static void soak(KafkaBroker kafka, DuckLakeStack lake, String topic, int partitions, List<String> jvm,
                             String[] args, int minutes, int rate) throws Exception {
        Map<String, String> env = appEnvironment(kafka, lake, topic, args);
        Path log = Path.of("target", "bench", topic + ".log");
        Files.createDirectories(log.getParent());
        System.out.printf("[soak] %d min at %,d events/s; app JVM options: %s%n", minutes, rate, String.join(" ", jvm));
        Map<String, Object> c = new HashMap<>();
        c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        c.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        c.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        c.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (AppProcess app = AppProcess.start(env, log, jvm);
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(c)) {
            RssSampler rss = new RssSampler(app.pid(), false);
            rss.start();
            long start = System.nanoTime();
            long end = start + Duration.ofMinutes(minutes).toNanos();
            long produced = 0;
            long nextReport = start + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < end) {
                long due = (long) ((System.nanoTime() - start) / 1e9 * rate);
                for (; produced < due; produced++) {
                    producer.send(new ProducerRecord<>(topic, (int) (produced % partitions), null,
                            PostHogEvents.event(produced)));
                }
                if (System.nanoTime() >= nextReport) {
                    nextReport += Duration.ofSeconds(30).toNanos();
                    System.out.printf("[soak] t=%4.0fs produced=%,d written=%,.0f RSS=%,d MiB peak=%,d MiB%n",
                            (System.nanoTime() - start) / 1e9, produced,
                            app.metric("millpond_records_written_total").orElse(0), rss.status("VmRSS:") / 1024,
                            rss.status("VmHWM:") / 1024);
                }
                Thread.sleep(10);
            }
            producer.flush();
            long finalProduced = produced;
            app.await("every produced record written", Duration.ofMinutes(3),
                    () -> app.metric("millpond_records_written_total").orElse(0) >= finalProduced);
            rss.flushed();
            System.out.printf("[soak] done: %,d events written; RSS now %,d MiB, peak %,d MiB%n", produced,
                    rss.status("VmRSS:") / 1024, rss.status("VmHWM:") / 1024);
            app.stop(Duration.ofSeconds(60));
        }
    }

    /** Produces the corpus with a batching producer (the broker helper's linger-0 producer is too slow for 1M). */
    private static long produce(KafkaBroker kafka, String topic, int partitions, int perPartition, boolean small)
            throws Exception {
        Map<String, Object> c = new HashMap<>();
        c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        c.put(ProducerConfig.ACKS_CONFIG, "1");
        c.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        c.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        c.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 256L << 20);
        c.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        c.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        long bytes = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(c)) {
            AtomicBoolean failed = new AtomicBoolean();
            for (int i = 0; i < perPartition; i++) {
                for (int p = 0; p < partitions; p++) {
                    long id = (long) p * perPartition + i;
                    byte[] value = small ? SampleEvents.event(id) : PostHogEvents.event(id);
                    bytes += value.length;
                    producer.send(new ProducerRecord<>(topic, p, null, value), (m, e) -> {
                        if (e != null) {
                            failed.set(true);
                        }
                    });
                }
            }
            producer.flush();
            if (failed.get()) {
                throw new IllegalStateException("producing the corpus failed");
            }
        }
        return bytes;
    }

    /** A plain KafkaConsumer reading every partition from the start: the ceiling the app is compared with. */
    private static double bareConsumerRate(KafkaBroker kafka, String topic, int partitions, long total) {
        Map<String, Object> c = kafka.consumerConfig("unused");
        c.remove(ConsumerConfig.GROUP_ID_CONFIG);
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000);
        List<TopicPartition> tps = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p)).toList();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            long n = 0;
            long start = System.nanoTime();
            long deadline = start + Duration.ofMinutes(5).toNanos();
            while (n < total && System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                n += records.count();
            }
            double rate = n / ((System.nanoTime() - start) / 1e9);
            System.out.printf("[bench] bare KafkaConsumer drained %,d records: %,.0f records/s%n", n, rate);
            return rate;
        }
    }

    /** Per-flush phase times from the app's log: each flush, then the mean of the size-triggered ones. */
    private static void printFlushes(String appLog) {
        Matcher m = FLUSH_LINE.matcher(appLog);
        List<double[]> flushes = new ArrayList<>();
        while (m.find()) {
            double[] f = new double[3 + PHASES.length];
            f[0] = Double.parseDouble(m.group(1));
            f[1] = Double.parseDouble(m.group(2));
            f[2] = Double.parseDouble(m.group(3));
            for (int i = 0; i < PHASES.length; i++) {
                f[3 + i] = m.group(4 + i) == null ? Double.NaN : Double.parseDouble(m.group(4 + i));
            }
            flushes.add(f);
        }
        System.out.printf("[bench] %d flushes (records, MB, elapsed, then %s in seconds):%n", flushes.size(),
                String.join("/", PHASES));
        Map<String, Double> sums = new LinkedHashMap<>();
        int counted = 0;
        for (int k = 0; k < flushes.size(); k++) {
            double[] f = flushes.get(k);
            StringBuilder b = new StringBuilder(String.format("[bench]   %,7.0f rec %6.1f MB %5.2fs |", f[0], f[1] / 1e6,
                    f[2]));
            for (int i = 0; i < PHASES.length; i++) {
                b.append(String.format(" %5.2f", f[3 + i]));
            }
            System.out.println(b);
            if (k < flushes.size() - 1) { // the last one is the tail (time-triggered, partial)
                counted++;
                for (int i = 0; i < PHASES.length; i++) {
                    sums.merge(PHASES[i], f[3 + i], Double::sum);
                }
                // One flush at a time: poll, convert and stages, then the flush's own elapsed time. Overlapped, the
                // write runs beside the next flush's poll and convert; the pump thread's cycle is then its own time:
                // poll, convert, stages, unify, sort, the commit and the wait for the write.
                double wait = f[3 + 7];
                sums.merge("cycle", Double.isNaN(wait) ? f[3] + f[4] + f[5] + f[2]
                        : f[3] + f[4] + f[5] + f[6] + f[7] + f[9] + wait, Double::sum);
            }
        }
        if (counted > 0) {
            StringBuilder b = new StringBuilder("[bench] mean of the full flushes:");
            for (Map.Entry<String, Double> e : sums.entrySet()) {
                b.append(String.format(" %s=%.2fs", e.getKey(), e.getValue() / counted));
            }
            System.out.println(b);
        }
    }

    /** Samples the app's resident set every 100 ms from /proc. */
    private static final class RssSampler extends Thread {
        private final long pid;
        private final List<Long> afterFirstFlush = new ArrayList<>();
        private volatile boolean flushed;
        private volatile boolean stopped;
        private long peakKb;
        private int samples;

        private final boolean nmt;
        private long nmtRssKb;
        private String nmtAtPeak;
        private long lastNmtNanos;

        /** @param nmt the app runs with NativeMemoryTracking: also keep {@code jcmd VM.native_memory} at the RSS peak */
        RssSampler(long pid, boolean nmt) {
            super("rss-sampler");
            this.pid = pid;
            this.nmt = nmt;
            setDaemon(true);
        }

        /** The JVM's own account (NMT) at the highest RSS sampled, to set against RSS: the rest is DuckDB and libc. */
        void printNativeMemoryAtPeak() {
            if (nmtAtPeak != null) {
                System.out.printf("[bench] jcmd VM.native_memory summary at RSS %,d MiB:%n%s%n", nmtRssKb / 1024,
                        nmtAtPeak);
            }
        }

        private void maybeNativeMemory(long rssKb) {
            if (!nmt || rssKb <= nmtRssKb || System.nanoTime() - lastNmtNanos < 1_000_000_000L) {
                return;
            }
            lastNmtNanos = System.nanoTime();
            try {
                Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                        Long.toString(pid), "VM.native_memory", "summary").redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes());
                p.waitFor();
                nmtRssKb = rssKb;
                nmtAtPeak = out;
            } catch (Exception e) {
                // the process is gone
            } 
        }

        void flushed() {
            flushed = true;
        }

        @Override
        public void run() {
            while (!stopped) {
                long rss = status("VmRSS:");
                if (rss > 0) {
                    synchronized (this) {
                        samples++;
                        if (flushed) {
                            afterFirstFlush.add(rss);
                        }
                    }
                    maybeNativeMemory(rss);
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void finish() throws InterruptedException {
            peakKb = status("VmHWM:");
            stopped = true;
            join();
        }

        long peakKb() {
            return peakKb;
        }

        synchronized long steadyKb() {
            if (afterFirstFlush.isEmpty()) {
                return -1;
            }
            List<Long> sorted = new ArrayList<>(afterFirstFlush);
            sorted.sort(null);
            return sorted.get(sorted.size() / 2);
        }

        synchronized int samples() {
            return samples;
        }

        private long status(String key) {
            try {
                for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                    if (line.startsWith(key)) {
                        return Long.parseLong(line.replaceAll("[^0-9]", ""));
                    }
                }
            } catch (Exception e) {
                // the process is gone
            }
            return -1;
        }
    }
}
