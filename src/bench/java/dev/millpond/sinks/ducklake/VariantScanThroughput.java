package dev.millpond.sinks.ducklake;

import dev.millpond.testsupport.events.PostHogEvents;
import dev.millpond.convert.ConvertedBatch;
import dev.millpond.convert.JsonToArrow;
import dev.millpond.sinks.FlushBatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Not a test: prints what the VARIANT hazard scan ({@link CompanionInput#of}: every {@code properties} value read and
 * scanned for an integer in (INT64_MAX, UINT64_MAX]) costs per flush, on the benchmark's PostHog-shaped events.
 *
 * <pre>
 * ./mvnw -o -q test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/cp.txt
 * java --add-opens=java.base/java.nio=ALL-UNNAMED -cp target/classes:target/test-classes:$(cat target/cp.txt) \
 *     dev.millpond.sinks.ducklake.VariantScanThroughput [rows per flush=67000] [poll batch=1000] [rounds=8]
 * </pre>
 */
public final class VariantScanThroughput {
    private VariantScanThroughput() {
    }

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 67_000;
        int batchSize = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        List<byte[]> events = PostHogEvents.events(0, rows);
        try (BufferAllocator allocator = new RootAllocator()) {
            JsonToArrow converter = new JsonToArrow(allocator);
            List<ConvertedBatch> converted = new ArrayList<>();
            List<VectorSchemaRoot> roots = new ArrayList<>();
            long propertiesBytes = 0;
            for (int from = 0; from < rows; from += batchSize) {
                ConvertedBatch b = converter.convert(events.subList(from, Math.min(rows, from + batchSize)));
                converted.add(b);
                roots.add(b.root());
                var properties = (org.apache.arrow.vector.VarCharVector) b.root().getVector("properties");
                propertiesBytes += properties.getDataBuffer().writerIndex();
            }
            // The unifier would make one schema; every poll batch of this corpus already has the same columns.
            FlushBatch flush = new FlushBatch(roots.get(0).getSchema(), roots, rows, List.of());
            var threads = ManagementFactory.getThreadMXBean();
            for (int round = 0; round < rounds; round++) {
                long cpu0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                try (CompanionInput input = CompanionInput.of(flush, List.of(flush), List.of("properties"),
                        java.util.Optional.of(new CompanionInput.Shredding(8192, 266, 8)), allocator)) {
                    double cpuMs = (threads.getCurrentThreadCpuTime() - cpu0) / 1e6;
                    System.out.printf("round %d: %,d rows (%.1f MB of properties) scanned in %.1f ms wall, %.1f ms"
                                    + " CPU = %.2f µs/row, %d rows rewritten%n", round, rows, propertiesBytes / 1e6,
                            (System.nanoTime() - t0) / 1e6, cpuMs, cpuMs * 1e3 / rows, input.rowsRewritten());
                }
            }
            converted.forEach(ConvertedBatch::close);
        }
    }
}
