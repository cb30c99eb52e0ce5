package dev.millpond.memory;

import java.util.Locale;
import java.util.Optional;

/**
 * How the container's memory is shared out, decided once at startup from the limit ({@link ContainerMemory}), the
 * heap the JVM was given and {@code FLUSH_SIZE}. Every part that can grow with the load gets a bound:
 *
 * <ul>
 *   <li><b>heap</b>: fixed by the JVM options ({@code -XX:MaxRAMPercentage=20} in the image); it holds the Kafka fetch
 *       buffers, whose bound {@link #kafkaFetchBytes()} is a slice of it, and the converter's scratch;</li>
 *   <li><b>JVM native</b>: metaspace, code cache, GC structures, thread stacks — measured with NMT, not tunable;</li>
 *   <li><b>Arrow</b>: the pending rows plus the copies a flush may make (unify, sort) — twice over when writes
 *       overlap, since the flush being written stays in Arrow memory while the next one fills. The pump flushes
 *       early when the pending batches' actual allocation reaches {@link #arrowPendingBytes()}, so no
 *       {@code FLUSH_SIZE} can outgrow the limit;</li>
 *   <li><b>rejects</b>: records set aside for the rejects table are kept whole, on the heap (the consumer's own
 *       arrays, not copied), until their flush: the pump flushes when they reach {@link #rejectsPendingBytes()}, a
 *       slice of the heap beside Kafka's, so one flush holds at most that plus the poll that crossed it (itself within
 *       the fetch bound). The sink hands them to DuckDB in Arrow batches of at most 8 MiB (or one record, when a
 *       record is larger), which the slack covers;</li>
 *   <li><b>include values</b>: a served allowlist (MILLPOND_INCLUDE_VALUES_URL) may hold at most
 *       {@link #includeValuesBytes()} of values, an eighth of the heap (8 bytes per integer); a response holding
 *       more is refused as a failed poll. The set is held once, as primitive sorted arrays; while a poll is applied
 *       the response's values and the changed set exist beside it, so up to three times that share for a moment.
 *       The response body itself is parsed as it arrives and never held;</li>
 *   <li><b>DuckDB</b>: {@code memory_limit}, what is left; an explicit {@code DUCKDB_MEMORY_LIMIT} wins;</li>
 *   <li><b>VARIANT companions</b>: DuckDB shreds each companion into parquet columns whose memory its
 *       {@code memory_limit} counts (a 1 MiB dictionary per column, docs/variant.md), so with {@code N} companions
 *       Arrow's share is capped at {@code 1 / max(4, 2 + N)} of what is left and DuckDB gets the rest (one companion
 *       is planned as two: with a quarter, one companion's pod peaked at 794 MiB RSS); the sink then plans
 *       each INSERT to fit DuckDB's share;</li>
 *   <li><b>slack</b>: what no allocator accounts for — malloc fragmentation (the image sets
 *       {@code MALLOC_ARENA_MAX=2}), DuckDB allocations outside its buffer manager, the Arrow C stream.</li>
 * </ul>
 *
 * Figures and how they were measured: docs/memory.md.
 *
 * @param limitBytes        the container limit, or empty when nothing bounds the process (then nothing is derived)
 * @param source            where the limit came from
 * @param heapBytes         the JVM's maximum heap
 * @param jvmNativeBytes    reserved for the JVM's own native memory
 * @param arrowPendingBytes the pending buffer's allocation at which the pump flushes whatever FLUSH_SIZE says
 * @param arrowBytes        reserved for Arrow in all: pending rows and a flush's copies of them (of two flushes when
 *                          writes overlap)
 * @param duckdbBytes       DuckDB's {@code memory_limit}, empty to leave DuckDB's default
 * @param duckdbThreads     DuckDB's {@code threads}
 * @param kafkaFetchBytes   the consumer's {@code fetch.max.bytes}
 * @param overlapWrites     whether two flushes are alive at once (one written while the next fills)
 * @param variantCompanions the VARIANT companions the sink writes (MILLPOND_VARIANT_COLUMNS on DuckLake)
 */
public record MemoryBudget(Optional<Long> limitBytes, String source, long heapBytes, long jvmNativeBytes,
                           long arrowPendingBytes, long arrowBytes, Optional<Long> duckdbBytes, int duckdbThreads,
                           long kafkaFetchBytes, boolean overlapWrites, int variantCompanions) {

    /** The most rejects a pending flush holds before it is flushed: a sixteenth of the heap, 1 to 16 MiB. */
    public long rejectsPendingBytes() {
        return Math.max(MIB, Math.min(16 * MIB, heapBytes / 16));
    }

    /** The most heap a served allowlist may take: an eighth of the heap, at least 1 MiB. */
    public long includeValuesBytes() {
        return includeValuesBytes(heapBytes);
    }

    /**
     * {@link #includeValuesBytes()} for a heap of {@code heapBytes}: the include-values source is created before the
     * budget is planned, from the same heap.
     */
    public static long includeValuesBytes(long heapBytes) {
        return Math.max(MIB, heapBytes / 8);
    }

    static final long MIB = 1L << 20;
    /** Metaspace, code cache, symbols, threads and GC of this app at a 256 MiB heap, from NMT, rounded up. */
    static final long JVM_NATIVE_BASE = 112 * MIB;
    /** Arrow's allocations over pyarrow's nbytes (buffer rounding, validity, offsets) seen on PostHog events. */
    static final double ARROW_OVERHEAD = 1.15;
    static final long DUCKDB_FLOOR = 128 * MIB;
    /**
     * The fetch response bound: at most an eighth of the heap, and at most what one socket read may ask of the JDK's
     * temporary direct buffers. The JDK reads a socket into a heap buffer through a temporary direct buffer of the
     * heap buffer's remaining size; Kafka reads a whole fetch response into one heap buffer, a few tens of KB per
     * read, so every read of a response larger than the image's {@code -Djdk.nio.maxCachedBufferSize} (16 MiB)
     * allocates and zeroes a new direct buffer of the rest of the response. At 24 MiB responses that zeroing was 13 %
     * of the process's CPU (docs/performance.md); at 8 MiB, below the cache bound, the buffer is allocated once.
     */
    static final long KAFKA_FETCH_MAX = 8 * MIB;

    /** As {@link #plan(Optional, long, long, int, boolean)} for a pump that writes one flush at a time. */
    public static MemoryBudget plan(Optional<ContainerMemory> limit, long heapBytes, long flushSize, int processors) {
        return plan(limit, heapBytes, flushSize, processors, false);
    }

    /**
     * @param limit         the container's limit, if any
     * @param heapBytes     {@code Runtime.maxMemory()}
     * @param flushSize     FLUSH_SIZE (≤ 0: flush every poll)
     * @param processors    CPUs the JVM sees (the container's CPU limit or request)
     * @param overlapWrites whether a flush is written while the next one fills: then two flushes are alive at once
     *                      (the one being written and the one filling), so the pending bound is a quarter of Arrow's
     *                      share instead of half — each flush and its copies fit in half the share
     */
    public static MemoryBudget plan(Optional<ContainerMemory> limit, long heapBytes, long flushSize, int processors,
                                    boolean overlapWrites) {
        return plan(limit, heapBytes, flushSize, processors, overlapWrites, 0);
    }

    /** @param variantCompanions the VARIANT companions the sink writes (MILLPOND_VARIANT_COLUMNS on DuckLake) */
    public static MemoryBudget plan(Optional<ContainerMemory> limit, long heapBytes, long flushSize, int processors,
                                    boolean overlapWrites, int variantCompanions) {
        int threads = Math.max(1, Math.min(processors, 2));
        long jvmNative = JVM_NATIVE_BASE + heapBytes / 16;
        long fetch = Math.max(4 * MIB, Math.min(KAFKA_FETCH_MAX, heapBytes / 8));
        int flushes = overlapWrites ? 2 : 1;
        if (limit.isEmpty()) {
            long pending = flushSize > 0 ? (long) (flushSize * ARROW_OVERHEAD) + 64 * MIB : 64 * MIB;
            return new MemoryBudget(Optional.empty(), "none", heapBytes, jvmNative, pending, 2 * flushes * pending,
                    Optional.empty(), threads, fetch, overlapWrites, variantCompanions);
        }
        long total = limit.get().bytes();
        long slack = total / 10;
        long free = total - heapBytes - jvmNative - slack;
        // Arrow gets room for each live flush's pending rows and as much again for its copies: up to what is left
        // beyond DuckDB's floor, and, when two flushes are alive, at most half of what is left (DuckDB writes one
        // of them meanwhile, so it needs its share as much as ever).
        long wanted = flushSize > 0 ? (long) (flushSize * ARROW_OVERHEAD) + 16 * MIB : 32 * MIB;
        long room = overlapWrites ? Math.min(free / 2, free - DUCKDB_FLOOR) : free - DUCKDB_FLOOR;
        if (variantCompanions > 0) {
            room = Math.min(room, free / Math.max(4, 2 + variantCompanions));
        }
        long arrow = Math.max(32 * MIB, Math.min(2 * flushes * wanted, room));
        long duckdb = Math.max(DUCKDB_FLOOR, free - arrow);
        return new MemoryBudget(Optional.of(total), limit.get().source(), heapBytes, jvmNative,
                arrow / (2 * flushes), arrow, Optional.of(duckdb), threads, fetch, overlapWrites, variantCompanions);
    }

    /** Rows per parquet row group: DuckDB buffers one per thread (docs/memory.md). */
    static final long ROW_GROUP_ROWS = 8_192;
    /**
     * Rows per parquet row group of a table with VARIANT companions: DuckDB decides a file's shredded columns from its
     * first row group alone, and a smaller one lets the sink fill it with the rows whose keys most rows share, so the
     * rest of a flush follows it unanalysed (docs/variant.md); each shredded column also buffers fewer rows.
     */
    static final long VARIANT_ROW_GROUP_ROWS = 2_048;

    /**
     * The most Arrow bytes one INSERT may carry when a row group of the table's rows would be larger: a quarter of
     * DuckDB's share per thread, so the row groups DuckDB buffers leave it room for the rest of the write (a 1 GiB pod
     * at the defaults: ~37 MiB, reached by rows above ~4.5 KB). Unbounded where DuckDB's share is not set.
     */
    public long insertSliceBytes() {
        return duckdbBytes.map(b -> b / (4L * duckdbThreads)).orElse(Long.MAX_VALUE);
    }

    /** The row group bound of the sink's table, which DuckDB buffers once per thread. */
    public long rowGroupRows() {
        return variantCompanions > 0 ? VARIANT_ROW_GROUP_ROWS : ROW_GROUP_ROWS;
    }

    /** DuckDB's {@code memory_limit} as a SQL value, e.g. {@code 300MiB}. */
    public Optional<String> duckdbMemoryLimit() {
        return duckdbBytes.map(b -> (b / MIB) + "MiB");
    }

    /** The startup line. */
    public String describe(Optional<String> explicitDuckdbLimit) {
        String duck = explicitDuckdbLimit.map(v -> v + " (DUCKDB_MEMORY_LIMIT)")
                .or(this::duckdbMemoryLimit).orElse("DuckDB's default");
        if (limitBytes.isEmpty()) {
            return String.format(Locale.ROOT, "Memory budget: no container limit found (set %s or a cgroup limit);"
                            + " heap %d MiB, Arrow pending up to %d MiB, DuckDB memory_limit %s, threads %d,"
                            + " Kafka fetch.max.bytes %d MiB, rejects flush at %d MiB, include values up to %d MiB",
                    ContainerMemory.VARIABLE, heapBytes / MIB, arrowPendingBytes / MIB, duck, duckdbThreads,
                    kafkaFetchBytes / MIB, rejectsPendingBytes() / MIB, includeValuesBytes() / MIB);
        }
        long total = limitBytes.get();
        return String.format(Locale.ROOT, "Memory budget: limit %d MiB (%s) = heap %d + JVM native %d + Arrow %d"
                        + " (flush at %d pending%s) + DuckDB %s%s + slack %d; DuckDB threads %d, Kafka fetch.max.bytes"
                        + " %d MiB, rejects flush at %d MiB and include values up to %d MiB (all in the heap)",
                total / MIB, source, heapBytes / MIB,
                jvmNativeBytes / MIB, arrowBytes / MIB, arrowPendingBytes / MIB,
                overlapWrites ? ", two flushes alive" : "", duck,
                variantCompanions > 0 ? " (shredding " + variantCompanions + " VARIANT companion"
                        + (variantCompanions > 1 ? "s" : "") + ")" : "",
                (total - heapBytes - jvmNativeBytes - arrowBytes - duckdbBytes.orElse(0L)) / MIB,
                duckdbThreads, kafkaFetchBytes / MIB, rejectsPendingBytes() / MIB, includeValuesBytes() / MIB);
    }
}
