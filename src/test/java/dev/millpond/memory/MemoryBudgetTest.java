package dev.millpond.memory;

import dev.millpond.config.ConfigException;
import dev.millpond.config.MemoryLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MemoryBudgetTest {

    private static final long MIB = 1L << 20;

    @Test
    void theShippedPodAtDefaultsLeavesDuckDbAndArrowRoomInsideOneGiB() {
        MemoryBudget b = MemoryBudget.plan(Optional.of(new ContainerMemory(1024 * MIB, "cgroup")), 256 * MIB,
                104_857_600, 2);
        long parts = b.heapBytes() + b.jvmNativeBytes() + b.arrowBytes() + b.duckdbBytes().orElseThrow();
        assertTrue(parts <= 1024 * MIB - 1024 * MIB / 10, "the parts leave 10 % slack: " + b);
        assertTrue(b.arrowPendingBytes() >= 104_857_600, "FLUSH_SIZE still triggers first at defaults: " + b);
        assertTrue(b.duckdbBytes().orElseThrow() >= 256 * MIB, b.toString());
        assertEquals("cgroup", b.source());
        assertEquals(2, b.duckdbThreads());
    }

    /** Whatever FLUSH_SIZE and heap, the parts never add up to more than the limit less its slack. */
    @Test
    void anyFlushSizeFitsTheLimit() {
        Random random = new Random(13);
        for (int i = 0; i < 2_000; i++) {
            long limit = (512 + random.nextInt(8 * 1024)) * MIB;
            long heap = limit / 4;
            long flushSize = random.nextInt(10) == 0 ? 0 : (long) (Math.pow(10, 4 + random.nextDouble() * 6));
            MemoryBudget b = MemoryBudget.plan(Optional.of(new ContainerMemory(limit, "cgroup")), heap, flushSize,
                    1 + random.nextInt(8));
            long parts = b.heapBytes() + b.jvmNativeBytes() + b.arrowBytes() + b.duckdbBytes().orElseThrow();
            assertTrue(parts <= limit - limit / 10, "limit " + limit + ", flush " + flushSize + ": " + b);
            assertTrue(b.arrowPendingBytes() * 2 <= b.arrowBytes(), "room for a flush's copies: " + b);
            assertTrue(b.duckdbThreads() >= 1 && b.duckdbThreads() <= 2, b.toString());
            assertTrue(b.kafkaFetchBytes() <= heap / 8 || b.kafkaFetchBytes() == 4 * MIB, b.toString());
            // one socket read of a fetch response must fit the JDK's cached temporary buffer (the image's 16 MiB)
            assertTrue(b.kafkaFetchBytes() <= MemoryBudget.KAFKA_FETCH_MAX, b.toString());
        }
    }

    /**
     * Overlapped writes keep two flushes alive (the one written, the one filling): whatever the limit and FLUSH_SIZE,
     * two pending bounds and a copy of each fit Arrow's share, the parts fit the limit, and DuckDB — which writes
     * one of them meanwhile — never gets less than it does with one flush at a time when the limit is tight.
     */
    @Test
    void overlappedWritesCountTwoFlushesInsideTheSameLimit() {
        Random random = new Random(17);
        for (int i = 0; i < 2_000; i++) {
            long limit = (512 + random.nextInt(8 * 1024)) * MIB;
            long heap = limit / 4;
            long flushSize = random.nextInt(10) == 0 ? 0 : (long) (Math.pow(10, 4 + random.nextDouble() * 6));
            int cpus = 1 + random.nextInt(8);
            Optional<ContainerMemory> memory = Optional.of(new ContainerMemory(limit, "cgroup"));
            MemoryBudget one = MemoryBudget.plan(memory, heap, flushSize, cpus, false);
            MemoryBudget two = MemoryBudget.plan(memory, heap, flushSize, cpus, true);
            long parts = two.heapBytes() + two.jvmNativeBytes() + two.arrowBytes() + two.duckdbBytes().orElseThrow();
            assertTrue(parts <= limit - limit / 10, "limit " + limit + ", flush " + flushSize + ": " + two);
            assertTrue(two.arrowPendingBytes() * 4 <= two.arrowBytes(), "two flushes and their copies: " + two);
            assertTrue(two.arrowPendingBytes() <= one.arrowPendingBytes(), one + " / " + two);
            long free = limit - heap - two.jvmNativeBytes() - limit / 10;
            assertTrue(two.duckdbBytes().orElseThrow() >= Math.min(one.duckdbBytes().orElseThrow(), free / 2),
                    "DuckDB keeps its share or half of what is left: " + one + " / " + two);
        }
        // The shipped pod: flushes fire at ~75 MiB of Arrow instead of FLUSH_SIZE's ~115, DuckDB keeps ~300 MiB.
        MemoryBudget shipped = MemoryBudget.plan(Optional.of(new ContainerMemory(1024 * MIB, "cgroup")), 199 * MIB,
                104_857_600, 2, true);
        assertTrue(shipped.arrowPendingBytes() >= 64 * MIB && shipped.arrowPendingBytes() < 104_857_600,
                shipped.toString());
        assertTrue(shipped.duckdbBytes().orElseThrow() >= 280 * MIB, shipped.toString());
        // With room to spare (4 GiB) a whole FLUSH_SIZE still fits twice.
        MemoryBudget roomy = MemoryBudget.plan(Optional.of(new ContainerMemory(4096 * MIB, "cgroup")), 800 * MIB,
                104_857_600, 2, true);
        assertTrue(roomy.arrowPendingBytes() >= 104_857_600, roomy.toString());
    }

    /**
     * VARIANT companions are shredded inside DuckDB's memory limit, so they move memory from Arrow to DuckDB: whatever
     * the limit, FLUSH_SIZE and the number of companions, the parts fit the limit less its slack, Arrow gets no more
     * and DuckDB no less than without companions, and more companions never give DuckDB less.
     */
    @Test
    void variantCompanionsMoveMemoryFromArrowToDuckDbOneShareEach() {
        Random random = new Random(19);
        for (int i = 0; i < 2_000; i++) {
            long limit = (768 + random.nextInt(8 * 1024)) * MIB;
            long heap = limit / 5;
            long flushSize = random.nextInt(10) == 0 ? 0 : (long) (Math.pow(10, 4 + random.nextDouble() * 6));
            Optional<ContainerMemory> memory = Optional.of(new ContainerMemory(limit, "cgroup"));
            MemoryBudget plain = MemoryBudget.plan(memory, heap, flushSize, 2, true, 0);
            long previousDuckDb = plain.duckdbBytes().orElseThrow();
            for (int companions = 1; companions <= 4; companions++) {
                MemoryBudget variant = MemoryBudget.plan(memory, heap, flushSize, 2, true, companions);
                long parts = variant.heapBytes() + variant.jvmNativeBytes() + variant.arrowBytes()
                        + variant.duckdbBytes().orElseThrow();
                assertTrue(parts <= limit - limit / 10 || variant.duckdbBytes().orElseThrow() == 128 * MIB,
                        "limit " + limit + ", flush " + flushSize + ": " + variant);
                assertTrue(variant.arrowBytes() <= plain.arrowBytes(), plain + " / " + variant);
                assertTrue(variant.duckdbBytes().orElseThrow() >= previousDuckDb, plain + " / " + variant);
                previousDuckDb = variant.duckdbBytes().orElseThrow();
            }
        }
        // The shipped pod with two companions: DuckDB gets well over the ~250 MiB two PostHog companions shred into.
        MemoryBudget shipped = MemoryBudget.plan(Optional.of(new ContainerMemory(1024 * MIB, "cgroup")), 206 * MIB,
                104_857_600, 2, true, 2);
        assertTrue(shipped.duckdbBytes().orElseThrow() >= 400 * MIB, shipped.toString());
        assertTrue(shipped.describe(Optional.empty()).contains("shredding 2 VARIANT companions"),
                shipped.describe(Optional.empty()));
    }

    /**
     * A quarter of DuckDB's share per thread may go in one INSERT: at the shipped pod, rows above ~4.5 KB (8 KB
     * events, a thousand columns) are cut, PostHog's ~1.2 KB are not; without a limit nothing is cut.
     */
    @Test
    void anInsertCarriesAtMostAQuarterOfDuckDbsSharePerThread() {
        MemoryBudget shipped = MemoryBudget.plan(Optional.of(new ContainerMemory(1024 * MIB, "cgroup")), 199 * MIB,
                104_857_600, 2, true);
        long slice = shipped.insertSliceBytes();
        assertEquals(shipped.duckdbBytes().orElseThrow() / (4 * shipped.duckdbThreads()), slice);
        assertTrue(1_200 * shipped.rowGroupRows() < slice, shipped.toString());
        assertTrue(8_200 * shipped.rowGroupRows() > slice, shipped.toString());
        assertEquals(Long.MAX_VALUE, MemoryBudget.plan(Optional.empty(), 199 * MIB, 104_857_600, 2, true)
                .insertSliceBytes());
    }

    @Test
    void withoutALimitNothingIsImposedOnDuckDb() {
        MemoryBudget b = MemoryBudget.plan(Optional.empty(), 1024 * MIB, 104_857_600, 8);
        assertTrue(b.duckdbBytes().isEmpty());
        assertTrue(b.arrowPendingBytes() > 104_857_600, "FLUSH_SIZE alone decides: " + b);
        assertTrue(b.describe(Optional.empty()).contains("no container limit"), b.describe(Optional.empty()));
    }

    @Test
    void anExplicitDuckDbLimitIsWhatTheStartupLineReports() {
        MemoryBudget b = MemoryBudget.plan(Optional.of(new ContainerMemory(1024 * MIB, "cgroup")), 256 * MIB,
                104_857_600, 2);
        assertTrue(b.describe(Optional.of("300MB")).contains("DuckDB 300MB (DUCKDB_MEMORY_LIMIT)"),
                b.describe(Optional.of("300MB")));
        assertTrue(b.describe(Optional.empty()).contains("DuckDB " + b.duckdbBytes().orElseThrow() / MIB + "MiB"),
                b.describe(Optional.empty()));
    }

    @Test
    void quantitiesParseAsKubernetesWritesThem() {
        assertEquals(1L << 30, MemoryLimit.bytes("1Gi"));
        assertEquals(768 * MIB, MemoryLimit.bytes("768Mi"));
        assertEquals(768 * MIB, MemoryLimit.bytes("768MiB"));
        assertEquals(1_000_000_000L, MemoryLimit.bytes("1G"));
        assertEquals(1_000_000_000L, MemoryLimit.bytes("1GB"));
        assertEquals(1073741824L, MemoryLimit.bytes(" 1073741824 "));
    }

    @ParameterizedTest
    @ValueSource(strings = {"lots", "-1Gi", "0", "1.5Gi", "1Xi", "99999999999999Ti"})
    void aBadLimitFailsNamingTheVariable(String value) {
        ConfigException e = assertThrows(ConfigException.class,
                () -> MemoryLimit.fromEnvironment(Map.of(ContainerMemory.VARIABLE, value)));
        assertTrue(e.getMessage().startsWith("MILLPOND_MEMORY_LIMIT "), e.getMessage());
    }

    @Test
    void theCgroupLimitIsReadWhenNoVariableIsSet(@TempDir Path cgroup) throws Exception {
        assertEquals(Optional.empty(), ContainerMemory.detect(OptionalLong.empty(), cgroup));
        Files.writeString(cgroup.resolve("memory.max"), "max\n");
        assertEquals(Optional.empty(), ContainerMemory.detect(OptionalLong.empty(), cgroup), "v2 without a limit");
        Files.writeString(cgroup.resolve("memory.max"), "1073741824\n");
        assertEquals(Optional.of(new ContainerMemory(1L << 30, "cgroup")), ContainerMemory.detect(OptionalLong.empty(), cgroup));
        assertEquals(Optional.of(new ContainerMemory(512 * MIB, ContainerMemory.VARIABLE)),
                ContainerMemory.detect(MemoryLimit.fromEnvironment(Map.of(ContainerMemory.VARIABLE, "512Mi")), cgroup), "the variable wins");
        Files.delete(cgroup.resolve("memory.max"));
        Files.createDirectories(cgroup.resolve("memory"));
        Files.writeString(cgroup.resolve("memory").resolve("memory.limit_in_bytes"), "9223372036854771712\n");
        assertEquals(Optional.empty(), ContainerMemory.detect(OptionalLong.empty(), cgroup), "v1 without a limit");
        Files.writeString(cgroup.resolve("memory").resolve("memory.limit_in_bytes"), "2147483648\n");
        assertEquals(Optional.of(new ContainerMemory(2L << 30, "cgroup")), ContainerMemory.detect(OptionalLong.empty(), cgroup));
    }

    /** Rejects are held whole on the heap: a slice of it beside Kafka's, so several multi-megabyte ones flush early. */
    @Test
    void pendingRejectsFlushAtASixteenthOfTheHeapWithinOneAndSixteenMiB() {
        long mib = MemoryBudget.MIB;
        assertThat(MemoryBudget.plan(Optional.empty(), 205 * mib, 100_000_000, 2).rejectsPendingBytes())
                .isEqualTo(205 * mib / 16);
        assertThat(MemoryBudget.plan(Optional.empty(), 4096 * mib, 100_000_000, 2).rejectsPendingBytes())
                .isEqualTo(16 * mib);
        assertThat(MemoryBudget.plan(Optional.empty(), 8 * mib, 100_000_000, 2).rejectsPendingBytes())
                .isEqualTo(mib);
        assertThat(MemoryBudget.plan(Optional.empty(), 205 * mib, 100_000_000, 2).describe(Optional.empty()))
                .contains("rejects flush at 12 MiB");
    }

    /** A served allowlist may take an eighth of the heap, and the startup line says how much, with a limit or not. */
    @Test
    void aServedAllowlistMayTakeAnEighthOfTheHeap() {
        long mib = MemoryBudget.MIB;
        assertThat(MemoryBudget.includeValuesBytes(206 * mib)).isEqualTo(206 * mib / 8);
        assertThat(MemoryBudget.includeValuesBytes(4 * mib)).isEqualTo(mib);
        MemoryBudget pod = MemoryBudget.plan(Optional.of(new ContainerMemory(1L << 30, "cgroup")), 206 * mib,
                100_000_000, 2);
        assertThat(pod.includeValuesBytes()).isEqualTo(MemoryBudget.includeValuesBytes(206 * mib));
        assertThat(pod.describe(Optional.empty())).contains("include values up to 25 MiB");
        assertThat(MemoryBudget.plan(Optional.empty(), 206 * mib, 100_000_000, 2).describe(Optional.empty()))
                .contains("include values up to 25 MiB");
    }
}
