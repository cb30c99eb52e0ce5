package dev.millpond.sinks.ducklake;

/**
 * How much of the machine the sink's DuckDB may use, from the memory budget.
 *
 * @param threads          DuckDB's {@code threads}
 * @param rowGroupRows     {@code parquet_row_group_size} of the sink's table: DuckDB buffers a whole row group per
 *                         thread before writing it, so the default 122,880 rows (~140 MB of PostHog events) held most
 *                         of a flush twice; 8,192 rows measured ~300 MB lower peak RSS and faster writes
 *                         (docs/memory.md)
 * @param insertSliceBytes the most Arrow bytes one INSERT of a flush of wide rows may carry ({@link InsertSlices}):
 *                         where 8,192 rows are larger than this, the row group alone would outgrow DuckDB's share
 */
public record DuckDbResources(int threads, long rowGroupRows, long insertSliceBytes) {

    /** Flushes go to DuckDB in one INSERT whatever their rows' width. */
    public DuckDbResources(int threads, long rowGroupRows) {
        this(threads, rowGroupRows, Long.MAX_VALUE);
    }
}
