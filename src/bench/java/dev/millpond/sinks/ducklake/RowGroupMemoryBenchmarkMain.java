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
 * Peak RSS of flushes of wide rows, with the row-group bound this build sets ({@code table}: 8,192 rows on the sink's
 * table) against the one earlier releases set ({@code lake-bytes}: 8,192 rows plus {@code parquet_row_group_size_bytes}
 * lake-wide, a quarter of DuckDB's share per thread). DuckDB as the memory budget sizes it for a 1 GiB pod
 * ({@code memory_limit} 298 MiB, 2 threads). One mode per JVM, so the peak belongs to it:
 * <pre>
 *   java --add-opens=java.base/java.nio=ALL-UNNAMED -Xmx1g -cp target/test-classes:target/classes:$(cat cp.txt) \
 *       dev.millpond.sinks.ducklake.RowGroupMemoryBenchmarkMain table 5000 20000 4
 * </pre>
 * Arguments: mode, rows per flush, bytes of text per row, flushes.
 */
public final class RowGroupMemoryBenchmarkMain {

    private RowGroupMemoryBenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int rows = Integer.parseInt(args[1]);
        int width = Integer.parseInt(args[2]);
        int flushes = Integer.parseInt(args[3]);
        try (SinkFixture f = new SinkFixture()) {
            if (mode.equals("lake-bytes")) {
                f.execute("CALL lake.set_option('parquet_row_group_size', '8192')");
                f.execute("CALL lake.set_option('parquet_row_group_size_bytes', '37MiB')");
            } else if (!mode.equals("table")) {
                throw new IllegalArgumentException("mode: table or lake-bytes");
            }
            DuckLakeSinkSettings s = f.settings(Optional.empty(), Optional.of("298MiB"), List.of());
            DuckLakeSink sink = f.sink(new DuckLakeSinkSettings(s.connection(), s.catalog(), s.dataPath(),
                    s.schema(), s.table(), s.s3Settings(), s.maxRetryCount(), s.memoryLimit(), s.partitionBy(),
                    s.variantSources(), s.extensionDirectory(), s.lakeOffsetsGroupId(), LandingLimits.DEFAULTS,
                    Optional.of(new DuckDbResources(2, 8_192))));
            String before = memory();
            for (int flush = 0; flush < flushes; flush++) {
                String[] json = new String[rows];
                for (int i = 0; i < rows; i++) {
                    StringBuilder b = new StringBuilder(width + 40).append("{\"id\":").append((long) flush * rows + i)
                            .append(",\"blob\":\"");
                    for (int c = 0; c < width; c++) {
                        b.append((char) ('a' + (i * 31 + c * 7) % 26));
                    }
                    json[i] = b.append("\"}").toString();
                }
                FlushBatch batch = f.batch(json);
                long t0 = System.nanoTime();
                sink.write(batch);
                System.out.printf(Locale.ROOT, "flush %d: %d rows x %d B in %.2f s, %s%n", flush, rows, width,
                        (System.nanoTime() - t0) / 1e9, memory());
            }
            System.out.printf(Locale.ROOT, "mode=%s rows=%d width=%d flushes=%d before[%s] after[%s] largest row group"
                    + " %d rows%n", mode, rows, width, flushes, before, memory(),
                    DuckLakeSinkSharedLakeTest.maxRowGroupRows(f, "events"));
        }
        System.exit(0);
    }

    private static String memory() throws IOException {
        long rss = 0;
        long hwm = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                rss = Long.parseLong(line.replaceAll("\\D", "")) / 1024;
            } else if (line.startsWith("VmHWM:")) {
                hwm = Long.parseLong(line.replaceAll("\\D", "")) / 1024;
            }
        }
        return "rss=" + rss + "MiB peak=" + hwm + "MiB";
    }
}
