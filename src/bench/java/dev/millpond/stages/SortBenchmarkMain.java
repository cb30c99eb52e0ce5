package dev.millpond.stages;

import dev.millpond.config.RecordHandlingConfig;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The spec's sort sizing: a ~256 MB, 30k-row flush (8.5 KB payload per row) sorted by team_id, timestamp.
 * A main rather than a timed test, so CI time does not depend on the machine. Prints milliseconds per sort.
 */
public final class SortBenchmarkMain {
    private SortBenchmarkMain() {
    }

    public static void main(String[] args) {
        int rows = 30_000;
        byte[] payload = new byte[8_500];
        Arrays.fill(payload, (byte) 'x');
        Random random = new Random(7);
        try (RootAllocator allocator = new RootAllocator()) {
            BigIntVector team = new BigIntVector("team_id", allocator);
            VarCharVector ts = new VarCharVector("timestamp", allocator);
            VarCharVector body = new VarCharVector("properties", allocator);
            team.allocateNew(rows);
            ts.allocateNew(rows * 26L, rows);
            body.allocateNew((long) rows * payload.length, rows);
            for (int i = 0; i < rows; i++) {
                team.set(i, random.nextInt(50));
                ts.setSafe(i, String.format("2024-03-05 12:%02d:%02d.%06d", random.nextInt(60), random.nextInt(60),
                        random.nextInt(1_000_000)).getBytes(StandardCharsets.US_ASCII));
                body.setSafe(i, payload);
            }
            team.setValueCount(rows);
            ts.setValueCount(rows);
            body.setValueCount(rows);
            try (VectorSchemaRoot flush = new VectorSchemaRoot(List.of(team, ts, body))) {
                flush.setRowCount(rows);
                System.out.printf("flush: %d rows, %.1f MB%n", rows, allocator.getAllocatedMemory() / 1e6);
                RecordStages stages = new RecordStages(
                        RecordHandlingConfig.disabled().withSortBy(List.of("team_id", "timestamp")),
                        new dev.millpond.observability.MillpondMetrics(
                                new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), "bench", ""),
                        allocator);
                for (int run = 0; run < 8; run++) {
                    long start = System.nanoTime();
                    try (VectorSchemaRoot sorted = stages.sortForWrite(List.of(flush)).orElseThrow()) {
                        long ms = (System.nanoTime() - start) / 1_000_000;
                        System.out.printf("run %d: sort %d ms (%d rows)%n", run, ms, sorted.getRowCount());
                    }
                }
            }
        }
    }
}
