package dev.millpond.sinks.hoglake;

import dev.millpond.config.HoglakeConfig;
import dev.millpond.config.HoglakeS3;
import dev.millpond.config.Secret;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.ducklake.DuckLakeSink;
import dev.millpond.sinks.ducklake.DuckLakeSinkSettings;
import dev.millpond.testsupport.DuckDbExtensions;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.S3Server;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import dev.millpond.testsupport.hoglake.HoglakeServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Sink-level write throughput, hoglake next to DuckLake on the same flushes: rows/s through one {@code write} (hoglake:
 * parquet encode + upload + commit; DuckLake: DuckDB's insert, parquet upload and catalog commit, offsets recorded).
 * The two sinks alternate, order swapped every round, so machine load hits both alike. A Quarkus test by its
 * machinery, a benchmark by its purpose: named so that no lane runs it, run by naming it:
 * {@code ./mvnw -o -B test -Dtest=SinkWriteBenchmark -Dsurefire.failIfNoSpecifiedTests=false
 * [-Dsink.bench.rows=100000] [-Dsink.bench.rounds=5]}.
 */
@ServiceBacked
@QuarkusTest
class SinkWriteBenchmark {

    @Test
    void hoglakeNextToDuckLake() throws Exception {
        int rows = Integer.getInteger("sink.bench.rows", 100_000);
        int rounds = Integer.getInteger("sink.bench.rounds", 5);
        S3Server s3 = Services.s3();
        String bucket = Services.uniqueName("bench");
        s3.createBucket(bucket);
        String cat = Services.uniqueName("bench");
        MillpondMetrics metrics = new MillpondMetrics(new SimpleMeterRegistry(), "t-events", "");
        try (HoglakeServer server = HoglakeServer.start();
             BufferAllocator allocator = new RootAllocator();
             HoglakeBatches batches = new HoglakeBatches(allocator)) {
            DuckLakeStack lake = Services.newDuckLake();
            HoglakeConfig config = new HoglakeConfig(server.url(), cat, "analytics", "events",
                    Optional.of("s3://" + bucket + "/" + cat),
                    new HoglakeS3(Optional.of(new HoglakeS3.StaticKeys(s3.accessKeyId(),
                            Secret.of(s3.secretAccessKey()))), Optional.of(s3.endpointUrl().toString()),
                            Optional.of(s3.region())), List.of(), 8, 45);
            try (Sink hoglake = HoglakeSink.open(config, List.of(), metrics, allocator);
                 Sink duckLake = new DuckLakeSink(duckLakeSettings(lake), metrics, allocator)) {
                List<Double> hoglakeRates = new ArrayList<>();
                List<Double> duckLakeRates = new ArrayList<>();
                // One warm-up flush each, then the measured rounds.
                for (int round = 0; round <= rounds; round++) {
                    FlushBatch flush = flush(batches, round, rows);
                    boolean hoglakeFirst = round % 2 == 0;
                    double a = rate(hoglakeFirst ? hoglake : duckLake, flush, rows);
                    double b = rate(hoglakeFirst ? duckLake : hoglake, flush, rows);
                    if (round > 0) {
                        hoglakeRates.add(hoglakeFirst ? a : b);
                        duckLakeRates.add(hoglakeFirst ? b : a);
                    }
                    batches.close();
                }
                System.out.printf("sink write, %d rows x %d rounds (load average %s): hoglake median %.0f rows/s %s;"
                                + " DuckLake median %.0f rows/s %s%n", rows, rounds, loadAverage(),
                        median(hoglakeRates), rounded(hoglakeRates), median(duckLakeRates), rounded(duckLakeRates));
            }
        }
    }

    private static FlushBatch flush(HoglakeBatches batches, int round, int rows) {
        Random random = new Random(round);
        String[] props = new String[64];
        for (int i = 0; i < props.length; i++) {
            StringBuilder b = new StringBuilder("{");
            for (int k = 0; k < 12; k++) {
                b.append("\"key").append(k).append("\":\"").append(Long.toHexString(random.nextLong())).append("\",");
            }
            props[i] = b.append("\"n\":").append(i).append('}').toString();
        }
        VectorSchemaRoot root = batches.events(random, rows, (long) round * rows, 50, List.of("pageview", "click",
                "identify", "$autocapture")).strings("properties", i -> props[i % props.length]).root();
        return HoglakeBatches.flush("t", (long) round * rows, root);
    }

    private static double rate(Sink sink, FlushBatch flush, int rows) throws Exception {
        long start = System.nanoTime();
        long written = sink.write(flush, 1);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (written != rows) {
            throw new AssertionError(sink.getClass().getSimpleName() + " wrote " + written + " of " + rows);
        }
        return rows / seconds;
    }

    private static DuckLakeSinkSettings duckLakeSettings(DuckLakeStack lake) {
        return new DuckLakeSinkSettings(":memory:", lake.catalog(), lake.dataPath(), "main", "events", lake.s3Settings(), 100,
                Optional.empty(), Optional.empty(), List.of(), DuckDbExtensions.directory().toAbsolutePath(),
                Optional.of("bench-group"));
    }

    private static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static String rounded(List<Double> values) {
        return Arrays.toString(values.stream().mapToLong(Math::round).toArray());
    }

    private static String loadAverage() throws Exception {
        Path p = Path.of("/proc/loadavg");
        return Files.exists(p) ? Files.readString(p).strip()
                : String.valueOf(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
}
