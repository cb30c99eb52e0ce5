package dev.millpond.sinks.ducklake;

import dev.millpond.config.LandingLimits;
import dev.millpond.sinks.FlushBatch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Time and memory of one flush whose record brings {@code N} new top-level keys, against the real stack (Postgres
 * catalog, parquet on the S3 server). A main rather than a timed test, so CI does not depend on the machine's speed.
 * Run one N per JVM so the peak RSS belongs to that N ({@code -Dmax.columns=M} applies a width bound):
 * <pre>
 *   ./mvnw -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt
 *   java --add-opens=java.base/java.nio=ALL-UNNAMED -Xmx1g \
 *       -cp target/test-classes:target/classes:$(cat target/test-classpath.txt) \
 *       dev.millpond.sinks.ducklake.WideFlushBenchmarkMain 1000
 * </pre>
 * Prints the write's wall time, the columns the table ended with, and the JVM's RSS and peak RSS (VmHWM) before and
 * after — the DuckDB engine lives in the same process, so its native memory is in these figures.
 */
public final class WideFlushBenchmarkMain {

    private WideFlushBenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        try (SinkFixture f = new SinkFixture()) {
            // The width bound lifted (unless -Dmax.columns says otherwise), so all N columns are added.
            DuckLakeSinkSettings s = f.settings(Optional.empty(), Optional.empty(), List.of());
            int maxColumns = Integer.getInteger("max.columns", Integer.MAX_VALUE);
            DuckLakeSink sink = f.sink(new DuckLakeSinkSettings(s.connection(), s.catalog(), s.dataPath(), s.schema(),
                    s.table(), s.s3Settings(), s.maxRetryCount(), s.memoryLimit(), s.partitionBy(), s.variantSources(),
                    s.extensionDirectory(), s.lakeOffsetsGroupId(), new LandingLimits(maxColumns, maxColumns, true,
                    LandingLimits.UNCAPPED)));
            sink.write(f.batch("{\"seq\":0,\"event\":\"first\"}"));
            StringBuilder wide = new StringBuilder("{\"seq\":1");
            for (int i = 0; i < n; i++) {
                wide.append(",\"w").append(i).append("\":").append(i);
            }
            FlushBatch flush = f.batch(wide.append('}').toString());
            String before = memory();
            long t0 = System.nanoTime();
            long written = sink.write(flush);
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf(Locale.ROOT, "N=%d written=%d seconds=%.2f columns=%d before[%s] after[%s]%n", n, written,
                    seconds, f.columnTypes().size(), before, memory());
        }
        System.exit(0);
    }

    private static String memory() throws IOException {
        long rss = 0;
        long hwm = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                rss = kb(line);
            } else if (line.startsWith("VmHWM:")) {
                hwm = kb(line);
            }
        }
        return String.format(Locale.ROOT, "rss=%d MB peak=%d MB", rss / 1024, hwm / 1024);
    }

    private static long kb(String line) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
    }
}
