package dev.millpond.bench;

import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.MemoryCgroup;
import dev.millpond.testsupport.PodShape;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.MillpondEnvironment;
import dev.millpond.testsupport.Services;
import dev.millpond.testsupport.events.Corpus;
import dev.millpond.testsupport.events.PostHogEvents;
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
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
 * End-to-end cost of the packaged app on the real stack — a KRaft broker, a Postgres catalog and an S3 server (all in
 * this JVM) — with millpond as its own process run as the shipped pod runs it: inside a cgroup v1 memory group with
 * the StatefulSet's memory limit ({@code kubernetes/statefulset.yaml}), with the runtime image's {@code JAVA_OPTS} and
 * environment ({@code ENV} lines of {@code src/main/docker/Dockerfile.jvm}), draining a backlog produced beforehand.
 *
 * <p>Per run it prints: whole-process CPU (user+sys from /proc) up to the first consumed record (startup) and from
 * there to the last written record, per record; CPU by thread; GC collections and time (jstat); records/s and MB/s;
 * peak RSS (VmHWM) and the cgroup's {@code memory.max_usage_in_bytes} and {@code memory.failcnt}; the per-flush phase
 * times from the app's {@code Flush:} lines; a bare {@code KafkaConsumer}'s drain rate of the same topic. The same for
 * each producer compression, and a summary table at the end. Run with {@code ./mvnw -B -Pbench package}. Knobs:
 * <ul>
 *   <li>{@code -Dbench.events=1000000}, {@code -Dbench.partitions=8};</li>
 *   <li>{@code -Dbench.compression=none,lz4,zstd}: the producer's {@code compression.type}, one topic each;</li>
 *   <li>{@code -Dbench.corpus=posthog} (default: ~1.18 KB PostHog-shaped events, {@link PostHogEvents}),
 *       {@code small} (~310-byte events), {@code posthog8k} (~8 KB PostHog-shaped events) or {@code wide<N>}
 *       (flat events of N top-level keys: {@code wide10}, {@code wide100}, {@code wide1000}); see {@link Corpus};</li>
 *   <li>{@code -Dbench.jvm="-XX:+UnlockDiagnosticVMOptions …"}: added after the image's {@code JAVA_OPTS}, as
 *       {@code JAVA_OPTS_APPEND} is;</li>
 *   <li>{@code -Dbench.apps=before=/tmp/a/quarkus-run.jar,after=target/quarkus-app/quarkus-run.jar} and
 *       {@code -Dbench.rounds=2}: several builds, alternated run by run on the same topics, for before/after figures
 *       on a machine whose load varies; {@code -Dbench.jvm.<label>=…} and {@code -Dbench.args.<label>=…} add JVM
 *       options and variables to one of them only;</li>
 *   <li>{@code -Dbench.args="FLUSH_SIZE=10000000 MILLPOND_LAKE_OFFSETS=false"}: any variable of the app under test
 *       (defaults: {@code FLUSH_INTERVAL_MS=5000}, {@code MILLPOND_MEMORY_LIMIT} the StatefulSet's limit, which the pod
 *       reads from its own cgroup, and the image's environment).</li>
 * </ul>
 */
public final class PipelineBenchmark {

    private static final Pattern FLUSH_LINE = Pattern.compile("Flush: (\\d+) records, (\\d+) bytes.*?elapsed=([0-9.]+)s"
            + "(?: \\(poll=([0-9.]+)s convert=([0-9.]+)s stages=([0-9.]+)s unify=([0-9.]+)s sort=([0-9.]+)s"
            + " write=([0-9.]+)s commit=([0-9.]+)s(?: wait=([0-9.]+)s)?\\))?");
    /** {@code wait} (the pump standing still for an overlapped write) is only logged by builds that overlap. */
    private static final String[] PHASES = {"poll", "convert", "stages", "unify", "sort", "write", "commit", "wait"};

    /** One run's figures, for the summary. */
    private record Result(String app, String pod, String compression, int records, double seconds, double mb,
                          double startupCpu, double startupWall, double firstFlush, double cpu, long parquetBytes, long gcs, double gcSeconds, long fullGcs, long peakRssKb, long cgroupMaxBytes,
                          long failCount, long oomKills, String load) {
    }

    private static int runs;

    /** Skip reasons that set a whole record aside (into the rejects table) rather than drop one of its keys. */
    private static final List<String> SET_ASIDE = List.of("column_limit", "json_parse");

    public static void main(String[] args) {
        try {
            benchmark(args);
        } catch (Throwable e) {
            // The broker, catalog and S3 server run on non-daemon threads: without an exit a failed run (say, the app
            // exiting mid-run) would leave this JVM and its Postgres running beside the next run.
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void benchmark(String[] args) throws Exception {
        int events = Integer.getInteger("bench.events", 1_000_000);
        int partitions = Integer.getInteger("bench.partitions", 8);
        Corpus corpus = Corpus.named(System.getProperty("bench.corpus", "posthog"));
        PodShape pod = PodShape.read(Path.of(""));
        List<String> jvm = new ArrayList<>(pod.jvmOptions());
        String extra = System.getProperty("bench.jvm", "").trim();
        if (!extra.isEmpty() && !extra.equals("-")) {
            jvm.addAll(Arrays.asList(extra.split("\\s+")));
        }
        MemoryCgroup.create("millpond-bench-probe", pod.memoryLimitBytes()).close(); // fail before producing anything
        // `-Dbench.pods=statefulset,512Mi`: each run under each memory limit (the StatefulSet's, and e.g. the original's).
        List<PodShape> pods = new ArrayList<>();
        for (String limit : System.getProperty("bench.pods", "statefulset").split(",")) {
            String l = limit.trim();
            pods.add(l.isEmpty() || l.equals("-") || l.equals("statefulset") ? pod : pod.withMemoryLimit(l));
        }
        Map<String, String> apps = new LinkedHashMap<>();
        for (String app : System.getProperty("bench.apps", "").split(",")) {
            int eq = app.indexOf('=');
            if (eq > 0) {
                apps.put(app.substring(0, eq), app.substring(eq + 1));
            }
        }
        if (apps.isEmpty()) {
            apps.put("app", AppProcess.jar().toString());
        }
        System.out.printf("[bench] pod shape: memory limit %s (%,d bytes) from kubernetes/statefulset.yaml; JVM"
                        + " options %s and environment %s from src/main/docker/Dockerfile.jvm%n", pod.memoryLimitText(),
                pod.memoryLimitBytes(), String.join(" ", jvm), pod.processEnvironment());
        KafkaBroker kafka = Services.kafka();
        DuckLakeStack lake = Services.newDuckLake();
        int soakMinutes = Integer.getInteger("bench.soakMinutes", 0);
        if (soakMinutes > 0) {
            String topic = Services.uniqueName("bench");
            kafka.createTopic(topic, partitions);
            soak(kafka, lake, topic, partitions, pod, jvm, args, soakMinutes, Integer.getInteger("bench.rate", 10_000),
                    corpus);
            System.exit(0);
        }

        int perPartition = events / partitions;
        int total = perPartition * partitions;
        int rounds = Integer.getInteger("bench.rounds", 1);
        List<Result> results = new ArrayList<>();
        Map<String, DuckLakeStack> lakes = new HashMap<>();
        for (String compression : System.getProperty("bench.compression", "none,lz4,zstd").split(",")) {
            String topic = Services.uniqueName("bench-" + compression);
            kafka.createTopic(topic, partitions);
            long t0 = System.nanoTime();
            long producedBytes = produce(kafka, topic, partitions, perPartition, corpus, compression);
            System.out.printf("[bench] produced %,d %s events (%,.1f MB of JSON, %.0f bytes each) to %d partitions,"
                            + " compression.type=%s, in %.1fs%n", total, corpus.description(),
                    producedBytes / 1e6, (double) producedBytes / total, partitions, compression,
                    (System.nanoTime() - t0) / 1e9);
            double bareRate = bareConsumerRate(kafka, topic, partitions, total);
            for (int round = 0; round < rounds; round++) {
                for (PodShape shape : pods) {
                    for (Map.Entry<String, String> app : apps.entrySet()) {
                        // Each build its own lake: builds on different DuckDB releases write different catalog formats.
                        DuckLakeStack appLake = lakes.computeIfAbsent(app.getKey(),
                                label -> lakes.isEmpty() ? lake : Services.newDuckLake());
                        results.add(run(app.getKey(), app.getValue(), compression, kafka, appLake, topic, shape, jvm,
                                args, total, producedBytes, bareRate));
                    }
                }
            }
        }
        System.out.printf("[bench] summary (%,d %s events (corpus %s), %d partitions; CPU = user+sys of the whole"
                + " process per record, startup apart; load = 1/5/15-min load average at the end of the run):%n", total,
                corpus.description(), corpus.name(), partitions);
        System.out.println("[bench] | app | pod | compression | records/s | MB/s | CPU µs/record | CPU µs/record with"
                + " startup | startup CPU s | startup wall s | first flush s | parquet MB | GCs (full) | GC s"
                + " | peak RSS MiB"
                + " | cgroup max MiB"
                + " | failcnt | load |");
        for (Result r : results) {
            System.out.printf("[bench] | %s | %s | %s | %,.0f | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f | %.1f | %d (%d)"
                            + " | %.2f | %,d"
                            + " | %,d | %d%s | %s |%n",
                    r.app, r.pod, r.compression, r.records / r.seconds, r.mb / r.seconds, r.cpu * 1e6 / r.records,
                    (r.cpu + r.startupCpu) * 1e6 / r.records, r.startupCpu, r.startupWall, r.firstFlush,
                    r.parquetBytes / 1e6, r.gcs, r.fullGcs, r.gcSeconds, r.peakRssKb / 1024, r.cgroupMaxBytes >> 20,
                    r.failCount, r.oomKills > 0 ? " OOM-killed " + r.oomKills : "", r.load);
        }
        System.exit(0);
    }

    private static Result run(String label, String jar, String compression, KafkaBroker kafka, DuckLakeStack lake,
                              String topic, PodShape pod, List<String> jvm, String[] args, int total,
                              long producedBytes, double bareRate) throws Exception {
        int n = ++runs;
        Map<String, String> env = appEnvironment(kafka, lake, topic, pod, args);
        putPairs(env, System.getProperty("bench.args." + label, ""));
        List<String> options = new ArrayList<>(jvm);
        String own = System.getProperty("bench.jvm." + label, "").trim();
        if (!own.isEmpty()) {
            options.addAll(Arrays.asList(own.split("\\s+")));
        }
        // `-Dbench.java.<label>=<JDK home>` (or `-Dbench.java` for every label): the JDK the app runs on. On JDK 25 or
        // later the app starts as the image's does, with the AOT cache trained beside its jar (trained here first
        // when there is none or it is older than the jar; `-Dbench.aot=false` starts without).
        String javaHome = System.getProperty("bench.java." + label, System.getProperty("bench.java", ""));
        System.setProperty("millpond.app.java", javaHome.equals("-") ? "" : javaHome);
        String aot = pod.imageEnvironment().getOrDefault("JAVA_OPTS_AOT", "");
        if (Boolean.parseBoolean(System.getProperty("bench.aot", "true")) && !aot.isBlank()
                && AotTraining.javaFeature(Path.of(AppProcess.javaHome())) >= 25) {
            Path app = Path.of(jar).toAbsolutePath().getParent();
            Path cache = app.resolve("app.aot");
            // Trained again when older than the jar: a cache of another build would be refused, and the run then
            // measures a start without one.
            if (!Files.exists(cache) || Files.getLastModifiedTime(cache)
                    .compareTo(Files.getLastModifiedTime(app.resolve("quarkus-run.jar"))) < 0) {
                AotTraining.train(kafka, lake, app, cache, AppProcess.javaHome(), jvm, pod.memoryLimitBytes(),
                        200_000, pod.processEnvironment());
                System.setProperty("millpond.app.java", javaHome.equals("-") ? "" : javaHome);
            }
            options.add(0, aot.replace("/deployments/", app + "/"));
        }
        // `-Dbench.profile=<dir>`: the whole process profiled (async-profiler), summarised after the run.
        String profileDir = System.getProperty("bench.profile", "-").trim();
        Path profile = null;
        if (!profileDir.isEmpty() && !profileDir.equals("-")) {
            profile = Path.of(profileDir).resolve("run-" + n + "-" + label + ".collapsed");
            options.add(CpuProfile.in(Path.of(profileDir)).option(profile));
        }
        env.put("DUCKLAKE_TABLE", "events_" + n); // each run lands every record anew
        env.put("GROUP_ID", "millpond-bench-" + n);
        System.setProperty("millpond.app.jar", jar);
        Path log = Path.of("target", "bench", topic + "-" + n + "-" + label + ".log");
        Files.createDirectories(log.getParent());
        System.out.printf("[bench] run %d: %s (%s, %s) on %s, compression %s, pod limit %s; JVM options %s; load %s%n", n,
                label, jar, AppProcess.javaHome(), topic, compression, pod.memoryLimitText(), String.join(" ", options),
                ProcessSnapshot.load());
        try (MemoryCgroup cgroup = MemoryCgroup.create("millpond-bench-" + ProcessHandle.current().pid() + "-" + n,
                pod.memoryLimitBytes())) {
            Result r;
            long launched = System.nanoTime();
            try (AppProcess app = AppProcess.startInCgroup(env, log, options, cgroup.tasks())) {
                // With `-XX:NativeMemoryTracking=summary` among the options the JVM's own account is kept at the peak.
                boolean nmt = options.stream().anyMatch(o -> o.startsWith("-XX:NativeMemoryTracking="));
                r = measure(app, label, pod.memoryLimitText(), compression, total, producedBytes, bareRate, cgroup,
                        launched, nmt);
                app.stop(Duration.ofSeconds(60));
            }
            System.out.printf("[bench] cgroup: memory.max_usage_in_bytes %,d MiB of the %s limit,"
                            + " memory.failcnt %d, OOM kills %d%n", cgroup.maxUsageBytes() >> 20,
                    pod.memoryLimitText(), cgroup.failCount(), cgroup.oomKills());
            long parquetBytes = parquetBytes(lake, "events_" + n);
            if (profile != null) {
                CpuProfile.summarise(profile, 15);
            }
            return new Result(r.app, r.pod, r.compression, r.records, r.seconds, r.mb, r.startupCpu, r.startupWall,
                    r.firstFlush, r.cpu, parquetBytes, r.gcs,
                    r.gcSeconds, r.fullGcs, r.peakRssKb, cgroup.maxUsageBytes(), cgroup.failCount(),
                    cgroup.oomKills(), ProcessSnapshot.load());
        }
    }

    private static Map<String, String> appEnvironment(KafkaBroker kafka, DuckLakeStack lake, String topic,
                                                      PodShape pod, String[] args) {
        Map<String, String> env = new HashMap<>(pod.processEnvironment());
        env.putAll(MillpondEnvironment.of(kafka, lake, topic));
        env.remove("MILLPOND_DUCKDB_EXTENSION_DIR"); // the image's path; AppProcess gives the local copy
        env.put("FLUSH_INTERVAL_MS", "5000");
        // The pod reads its limit from its own cgroup; here the app would read the host's root group, so say it.
        env.put("MILLPOND_MEMORY_LIMIT", Long.toString(pod.memoryLimitBytes()));
        // From `./mvnw -Pbench package -Dbench.args="NAME=value …"` (Maven passes them as program arguments).
        for (String arg : args) {
            putPairs(env, arg);
        }
        return env;
    }

    private static void putPairs(Map<String, String> env, String pairs) {
        for (String pair : pairs.trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                env.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
    }

    private static Result measure(AppProcess app, String label, String podLimit, String compression, int total,
                                  long producedBytes, double bareRate, MemoryCgroup cgroup, long launched,
                                  boolean nmt) throws Exception {
        RssSampler rss = new RssSampler(app.pid(), nmt);
        rss.start();
        ProcessSnapshot[] first = new ProcessSnapshot[1];
        double[] consumedAtFirst = new double[1];
        // Checked often: the moment it is seen is the startup's wall time (process start to the first records polled).
        app.await("first record consumed", Duration.ofMinutes(3), Duration.ofMillis(50), () -> {
            double consumed = app.metric("millpond_records_consumed_total").orElse(0);
            if (consumed > 0) {
                first[0] = ProcessSnapshot.take(app.pid());
                consumedAtFirst[0] = consumed;
            }
            return consumed > 0;
        });
        List<long[]> progress = new ArrayList<>(); // {nanos, written} at each change
        // Scraped once a second, as a Prometheus would far less often: each scrape costs the app a few ms of CPU. A
        // record set aside (too wide for the table's bound, or unparseable) is done with too: it lands in the rejects.
        long[] setAside = new long[1];
        app.await("every record written or set aside", Duration.ofMinutes(30), Duration.ofSeconds(1), () -> {
            String metrics = app.metrics();
            long written = (long) AppProcess.metricIn(metrics, "millpond_records_written_total").orElse(0);
            setAside[0] = 0;
            for (String reason : SET_ASIDE) {
                setAside[0] += (long) AppProcess.metricIn(metrics, "millpond_records_skipped_total", "reason", reason)
                        .orElse(0);
            }
            if (written > 0 && (progress.isEmpty() || progress.get(progress.size() - 1)[1] != written)) {
                progress.add(new long[] {System.nanoTime(), written});
                rss.flushed();
            }
            return written + setAside[0] >= total;
        });
        ProcessSnapshot end = ProcessSnapshot.take(app.pid());
        rss.finish();
        // The first snapshot is taken a poll interval after consumption began: count only the records after it.
        int measured = (int) (total - consumedAtFirst[0]);
        double seconds = (end.nanos() - first[0].nanos()) / 1e9;
        double mb = producedBytes / 1e6 * measured / total;
        double cpu = end.cpuSeconds() - first[0].cpuSeconds();
        System.out.printf("[bench] %,d records (after the first %,.0f) in %.2fs = %,.0f records/s (%,.1f MB/s of"
                + " JSON); load %s%n", measured, consumedAtFirst[0], seconds, measured / seconds, mb / seconds,
                ProcessSnapshot.load());
        if (setAside[0] > 0) {
            System.out.printf("[bench] %,d of the %,d records set aside (millpond_records_skipped_total, reasons %s):"
                    + " they went to the rejects table, not the events table%n", setAside[0], total,
                    String.join("/", SET_ASIDE));
        }
        System.out.printf("[bench] whole-process CPU (user+sys): startup to the first record %.1fs; then %.1fs for"
                        + " %,d records = %.1f µs/record (%.2f cores busy)%n", first[0].cpuSeconds(), cpu, measured,
                cpu * 1e6 / measured, cpu / seconds);
        double startupWall = (first[0].nanos() - launched) / 1e9;
        StringBuilder startup = new StringBuilder(String.format("[bench] startup: %.2fs wall, %.2fs CPU; by live"
                + " thread (s):", startupWall, first[0].cpuSeconds()));
        first[0].threadSeconds().entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(10)
                .forEach(e -> startup.append(String.format(" %s %.2f;", e.getKey(), e.getValue())));
        System.out.println(startup);
        StringBuilder threads = new StringBuilder("[bench] CPU by thread (s, after the first record):");
        end.threadSecondsSince(first[0]).entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(10)
                .forEach(e -> threads.append(String.format(" %s %.1f;", e.getKey(), e.getValue())));
        System.out.println(threads);
        long gcs = end.youngGcs() + end.fullGcs() - first[0].youngGcs() - first[0].fullGcs();
        double gcSeconds = end.youngGcSeconds() + end.fullGcSeconds() - first[0].youngGcSeconds()
                - first[0].fullGcSeconds();
        long fullGcs = end.fullGcs() - first[0].fullGcs();
        System.out.printf("[bench] GC (jstat, after the first record): %d collections (%d full), %.2fs; in all %d"
                + " young %.2fs, %d full %.2fs%n", gcs, fullGcs, gcSeconds, end.youngGcs(), end.youngGcSeconds(),
                end.fullGcs(), end.fullGcSeconds());
        if (progress.size() >= 2) {
            long[] lastSteady = progress.get(progress.size() - 2);
            double s = (lastSteady[0] - first[0].nanos()) / 1e9;
            System.out.printf("[bench] steady (to the last size-triggered flush): %,d records in %.2fs = %,.0f"
                    + " records/s%n", lastSteady[1], s, lastSteady[1] / s);
        }
        System.out.printf("[bench] bare KafkaConsumer on the same topic: %,.0f records/s; app/bare = %.2f%n",
                bareRate, measured / seconds / bareRate);
        printFlushes(app.logText());
        System.out.printf("[bench] RSS of the app: peak %,d MiB (VmHWM), steady %,d MiB (median after the first"
                        + " flush), %d samples; cgroup peak so far %,d MiB%n", rss.peakKb() / 1024,
                rss.steadyKb() / 1024, rss.samples(), cgroup.maxUsageBytes() >> 20);
        rss.printNativeMemoryAtPeak();
        // The first flush: when the written count first moved (process start to the first rows in the lake).
        double firstFlush = progress.isEmpty() ? Double.NaN : (progress.get(0)[0] - launched) / 1e9;
        System.out.printf("[bench] first flush in the lake %.2fs after the process started%n", firstFlush);
        return new Result(label, podLimit, compression, measured, seconds, mb, first[0].cpuSeconds(), startupWall,
                firstFlush, cpu, 0, gcs, gcSeconds,
                fullGcs, rss.peakKb(), 0, 0, 0, ProcessSnapshot.load());
    }

    private static void soak(KafkaBroker kafka, DuckLakeStack lake, String topic, int partitions, PodShape pod,
                             List<String> jvm, String[] args, int minutes, int rate, Corpus corpus)
            throws Exception {
        Map<String, String> env = appEnvironment(kafka, lake, topic, pod, args);
        Path log = Path.of("target", "bench", topic + ".log");
        Files.createDirectories(log.getParent());
        System.out.printf("[soak] %d min at %,d %s events/s; app JVM options: %s%n", minutes, rate,
                corpus.description(), String.join(" ", jvm));
        Map<String, Object> c = new HashMap<>();
        c.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        c.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        c.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        c.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (MemoryCgroup cgroup = MemoryCgroup.create("millpond-bench-soak-" + ProcessHandle.current().pid(),
                pod.memoryLimitBytes());
             AppProcess app = AppProcess.startInCgroup(env, log, jvm, cgroup.tasks());
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
                            corpus.event(produced)));
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
            System.out.printf("[soak] done: %,d events written; RSS now %,d MiB, peak %,d MiB; cgroup"
                            + " memory.max_usage_in_bytes %,d MiB, memory.failcnt %d%n", produced,
                    rss.status("VmRSS:") / 1024, rss.status("VmHWM:") / 1024, cgroup.maxUsageBytes() >> 20,
                    cgroup.failCount());
            app.stop(Duration.ofSeconds(60));
        }
    }

    /** Produces the corpus with a batching producer (the broker helper's linger-0 producer is too slow for 1M). */
    /** The bytes of the table's parquet files, from the catalog: what the codec and row groups made of the flushes. */
    private static long parquetBytes(DuckLakeStack lake, String table) {
        try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), coalesce(sum(data_file_size_bytes), 0) FROM"
                     + " ducklake_list_files('lake', '" + table + "')")) {
            rs.next();
            System.out.printf("[bench] parquet: %,d files, %,.1f MB%n", rs.getLong(1), rs.getLong(2) / 1e6);
            return rs.getLong(2);
        } catch (SQLException e) {
            System.out.println("[bench] parquet: the catalog did not answer: " + e.getMessage());
            return -1;
        }
    }

    static long produce(KafkaBroker kafka, String topic, int partitions, int perPartition, Corpus corpus,
                                String compression) throws Exception {
        Map<String, Object> c = new HashMap<>();
        c.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
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
                    byte[] value = corpus.event(id);
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
                Process p = new ProcessBuilder(Path.of(AppProcess.javaHome(), "bin", "jcmd").toString(),
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
