package dev.millpond.convert;

import dev.millpond.testsupport.events.PostHogEvents;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Not a test: prints JsonToArrow throughput on the benchmark's ~1.19 KB PostHog-shaped events ({@link PostHogEvents}).
 *
 * <pre>
 * ./mvnw -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java --add-opens=java.base/java.nio=ALL-UNNAMED -cp target/classes:target/test-classes:$(cat target/cp.txt) \
 *     dev.millpond.convert.ConvertThroughput [records=200000] [batch=1000] [rounds=5]
 *
 * Measured 2026-11-29 on the 2-core dev machine (load average 5-11 from other builds): about 260k-290k
 * records/s warm (~300 MB/s of JSON), batch 1000 or 10000. 2026-12-01, records read straight from their bytes:
 * 2.2-2.4 µs of CPU per record (~430k records per CPU-second) against 4.5-5.5 before (docs/performance.md).
 * </pre>
 */
public final class ConvertThroughput {
    private ConvertThroughput() {}

    public static void main(String[] args) {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int batchSize = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        List<byte[]> events = PostHogEvents.events(0, records);
        long totalBytes = 0;
        for (byte[] e : events) {
            totalBytes += e.length;
        }
        System.out.printf("%d events, %.0f bytes average, poll batches of %d%n",
                records, (double) totalBytes / records, batchSize);
        try (BufferAllocator allocator = new RootAllocator()) {
            JsonToArrow converter = new JsonToArrow(allocator);
            for (int round = 0; round < rounds; round++) {
                long rows = 0;
                long nbytes = 0;
                long start = System.nanoTime();
                long cpuStart = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                for (int from = 0; from < records; from += batchSize) {
                    List<byte[]> batch = events.subList(from, Math.min(records, from + batchSize));
                    try (ConvertedBatch b = converter.convert(batch)) {
                        rows += b.rows();
                        nbytes += b.nbytes();
                    }
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                // CPU time of this thread: on a shared machine, wall-clock rates swing with the load; this does not.
                double cpuSeconds = (java.lang.management.ManagementFactory.getThreadMXBean()
                        .getCurrentThreadCpuTime() - cpuStart) / 1e9;
                System.out.printf("round %d: %,.0f records/s, %.0f MB/s of JSON, %.2f µs CPU/record (%,.0f records per"
                                + " CPU-second; %d rows, %,d Arrow bytes)%n", round, rows / seconds,
                        totalBytes / seconds / 1e6, cpuSeconds * 1e6 / rows, rows / cpuSeconds, rows, nbytes);
            }
        }
    }
}
