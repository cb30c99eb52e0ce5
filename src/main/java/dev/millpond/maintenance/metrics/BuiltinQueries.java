package dev.millpond.maintenance.metrics;

import java.time.Duration;
import java.util.List;

/** The exporter's built-in lake-state queries: every five minutes, the catalog format version every hour. */
public final class BuiltinQueries {

    private static final String M = "__ducklake_metadata_lake.";
    private static final Duration FIVE_MINUTES = Duration.ofMinutes(5);

    /** Live data files by size band, the bands of tiered compaction plus what is already large. */
    private static final String BAND = "CASE WHEN file_size_bytes < 1048576 THEN 'tier1' "
            + "WHEN file_size_bytes < 10485760 THEN 'tier2' WHEN file_size_bytes < 67108864 THEN 'tier3' "
            + "ELSE 'large' END";

    /**
     * Per live table with inlined data: its inlined rows and the catalog tables holding them (one per schema version
     * until a flush). The inlined tables' names are data, so each count runs in Postgres itself (query_to_xml runs a
     * query built per row), through DuckDB's pass-through to the catalog database.
     */
    private static final String INLINED_DATA = "SELECT schema_name AS schema, table_name AS \"table\", "
            + "count(*) AS tables, sum(rows) AS rows FROM postgres_query('__ducklake_metadata_lake', "
            + "'SELECT s.schema_name, t.table_name, "
            + "(xpath(''/row/c/text()'', query_to_xml(format(''SELECT count(*) AS c FROM %I'', i.table_name), false, "
            + "true, '''')))[1]::text::bigint AS rows FROM ducklake_inlined_data_tables i JOIN ducklake_table t "
            + "ON t.table_id = i.table_id AND t.end_snapshot IS NULL JOIN ducklake_schema s "
            + "ON s.schema_id = t.schema_id AND s.end_snapshot IS NULL') GROUP BY ALL ORDER BY ALL";

    private BuiltinQueries() {
    }

    public static List<CatalogQuery> all() {
        return List.of(
                q("pending_deletes", "SELECT count(*) AS total, count(DISTINCT path) AS unique_paths, "
                        + "count(*) - count(DISTINCT path) AS dup_rows FROM " + M
                        + "ducklake_files_scheduled_for_deletion"),
                q("data_files", "SELECT count(*) AS files, coalesce(sum(file_size_bytes), 0) AS bytes, "
                        + "coalesce(sum(record_count), 0) AS rows FROM " + M + "ducklake_data_file "
                        + "WHERE end_snapshot IS NULL"),
                q("delete_files", "SELECT count(*) AS files, coalesce(sum(file_size_bytes), 0) AS bytes FROM " + M
                        + "ducklake_delete_file WHERE end_snapshot IS NULL"),
                q("files_per_band", "SELECT b.band, count(f.band) AS count, coalesce(sum(f.bytes), 0) AS bytes "
                        + "FROM (VALUES ('tier1'), ('tier2'), ('tier3'), ('large')) b(band) LEFT JOIN "
                        + "(SELECT " + BAND + " AS band, file_size_bytes AS bytes FROM " + M + "ducklake_data_file "
                        + "WHERE end_snapshot IS NULL) f ON f.band = b.band GROUP BY b.band", "band"),
                q("compaction_candidates", "SELECT t.tier, count(f.data_file_id) AS count FROM (VALUES ('1', 0, "
                        + "1048576), ('2', 1048576, 10485760), ('3', 10485760, 67108864)) t(tier, lo, hi) LEFT JOIN "
                        + M + "ducklake_data_file f ON f.end_snapshot IS NULL AND f.file_size_bytes >= t.lo "
                        + "AND f.file_size_bytes < t.hi GROUP BY t.tier", "tier"),
                q("snapshots", "SELECT count(*) AS count, coalesce(epoch(now()) - epoch(min(snapshot_time)), 0) AS "
                        + "oldest_seconds_ago, coalesce(epoch(now()) - epoch(max(snapshot_time)), 0) AS "
                        + "newest_seconds_ago, coalesce(min(snapshot_id), 0) AS oldest_id, "
                        + "coalesce(max(snapshot_id), 0) AS newest_id FROM " + M + "ducklake_snapshot"),
                q("inlined_data_tables", "SELECT count(*) AS total FROM " + M + "ducklake_inlined_data_tables"),
                q("unreachable_inline_tables", "SELECT count(*) AS total FROM " + M + "ducklake_inlined_data_tables i "
                        + "WHERE NOT EXISTS (SELECT 1 FROM " + M + "ducklake_table t WHERE t.table_id = i.table_id "
                        + "AND t.end_snapshot IS NULL)"),
                q("inlined_data", INLINED_DATA, "schema", "table"),
                q("tables", "SELECT s.state, count(t.table_id) AS count FROM (VALUES ('live'), ('dropped')) s(state) "
                        + "LEFT JOIN (SELECT table_id, bool_or(end_snapshot IS NULL) AS live FROM " + M
                        + "ducklake_table GROUP BY table_id) t ON (t.live AND s.state = 'live') OR (NOT t.live AND "
                        + "s.state = 'dropped') GROUP BY s.state", "state"),
                q("files_per_partition_top20", "SELECT coalesce((SELECT string_agg(v.partition_value, '/' ORDER BY "
                        + "v.partition_key_index) FROM " + M + "ducklake_file_partition_value v WHERE "
                        + "v.data_file_id = f.data_file_id), '<none>') AS partition, count(*) AS count FROM " + M
                        + "ducklake_data_file f WHERE f.end_snapshot IS NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 20",
                        "partition"),
                new CatalogQuery("catalog_format", "SELECT regexp_extract(value, '^[0-9]+(\\.[0-9]+)?') :: DOUBLE AS "
                        + "version, regexp_replace(value, '^[0-9]+(\\.[0-9]+)?', '') AS suffix FROM " + M
                        + "ducklake_metadata WHERE key = 'version' AND scope IS NULL", Duration.ofMinutes(60),
                        List.of("suffix")),
                q("config", "SELECT key, coalesce(scope, 'global') AS scope, coalesce(scope_id::VARCHAR, '') AS "
                        + "scope_id, CASE lower(value) WHEN 'true' THEN 1 WHEN 'false' THEN 0 ELSE "
                        + "TRY_CAST(value AS DOUBLE) END AS value FROM " + M + "ducklake_metadata "
                        + "WHERE key IN ('auto_compact', 'data_inlining_row_limit')", "key", "scope", "scope_id"));
    }

    private static CatalogQuery q(String name, String sql, String... labels) {
        return new CatalogQuery(name, sql, FIVE_MINUTES, List.of(labels));
    }
}
