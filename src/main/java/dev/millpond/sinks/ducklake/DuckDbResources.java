package dev.millpond.sinks.ducklake;

/**
 * How much of the machine the sink's DuckDB may use, from the memory budget.
 *
 * @param threads      DuckDB's {@code threads}
 * @param rowGroupRows {@code parquet_row_group_size} of the sink's table: DuckDB buffers a whole row group per thread
 *                     before writing it, so the default 122,880 rows (~140 MB of PostHog events) held most of a flush
 *                     twice; 8,192 rows measured ~300 MB lower peak RSS and faster writes (docs/memory.md)
 */
public record DuckDbResources(int threads, long rowGroupRows) {
}
