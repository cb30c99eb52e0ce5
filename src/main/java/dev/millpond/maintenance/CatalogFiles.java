package dev.millpond.maintenance;

import dev.millpond.ducklake.DuckLakeSql;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The files the catalog knows, as absolute paths, and the objects that exist under the data path. DuckLake stores
 * most paths relative: a data or delete file to its table's path, a table's to its schema's, a schema's to the
 * catalog's data path; a file scheduled for deletion to the data path. Both sides are compared in absolute form.
 */
final class CatalogFiles {

    /** Base path per table_id, from each table's and schema's newest version. */
    static final String TABLE_BASES = "dp AS (SELECT value AS data_path FROM ducklake_metadata "
            + "WHERE key = 'data_path' AND scope IS NULL), "
            + "sch AS (SELECT DISTINCT ON (schema_id) schema_id, CASE WHEN coalesce(path_is_relative, true) "
            + "THEN dp.data_path || coalesce(path, '') ELSE path END AS base FROM ducklake_schema, dp "
            + "ORDER BY schema_id, begin_snapshot DESC), "
            + "tbl AS (SELECT DISTINCT ON (t.table_id) t.table_id, CASE WHEN coalesce(t.path_is_relative, true) "
            + "THEN sch.base || coalesce(t.path, '') ELSE t.path END AS base FROM ducklake_table t "
            + "JOIN sch USING (schema_id) ORDER BY t.table_id, t.begin_snapshot DESC)";

    private CatalogFiles() {
    }

    static String dataPath(Connection catalog) throws SQLException {
        List<List<String>> rows = LakeSession.queryRows(catalog,
                "SELECT value FROM ducklake_metadata WHERE key = 'data_path' AND scope IS NULL");
        if (rows.isEmpty()) {
            throw new SQLException("The catalog has no data_path: is this a DuckLake catalog?");
        }
        return rows.get(0).get(0);
    }

    /** data_file_id → absolute path of every data file row (live or waiting for expiry). */
    static Map<Long, String> dataFiles(Connection catalog, boolean liveOnly) throws SQLException {
        return idToPath(catalog, "WITH " + TABLE_BASES + " SELECT df.data_file_id, CASE WHEN df.path_is_relative "
                + "THEN tbl.base || df.path ELSE df.path END FROM ducklake_data_file df JOIN tbl USING (table_id)"
                + (liveOnly ? " WHERE df.end_snapshot IS NULL" : ""));
    }

    /** delete_file_id → absolute path of every delete file row. */
    static Map<Long, String> deleteFiles(Connection catalog) throws SQLException {
        return idToPath(catalog, "WITH " + TABLE_BASES + " SELECT d.delete_file_id, CASE WHEN d.path_is_relative "
                + "THEN tbl.base || d.path ELSE d.path END FROM ducklake_delete_file d JOIN tbl USING (table_id)");
    }

    static List<QueuedFile> scheduledForDeletion(Connection catalog) throws SQLException {
        String dataPath = dataPath(catalog);
        return LakeSession.queryRows(catalog, "SELECT data_file_id, path, path_is_relative FROM "
                        + "ducklake_files_scheduled_for_deletion ORDER BY data_file_id").stream()
                .map(r -> new QueuedFile(Long.parseLong(r.get(0)), r.get(1),
                        "t".equals(r.get(2)) || "true".equals(r.get(2)) ? dataPath + r.get(1) : r.get(1)))
                .toList();
    }

    /** Every parquet object under the catalog's data path, listed through DuckDB's S3 client. */
    static Set<String> objects(Connection duck, String dataPath) throws SQLException {
        String root = dataPath.endsWith("/") ? dataPath : dataPath + "/";
        Set<String> files = new LinkedHashSet<>();
        for (List<String> row : LakeSession.queryRows(duck,
                "SELECT file FROM glob(" + DuckLakeSql.literal(root + "**/*.parquet") + ")")) {
            files.add(row.get(0));
        }
        return files;
    }

    private static Map<Long, String> idToPath(Connection catalog, String sql) throws SQLException {
        Map<Long, String> paths = new LinkedHashMap<>();
        for (List<String> row : LakeSession.queryRows(catalog, sql)) {
            paths.put(Long.parseLong(row.get(0)), row.get(1));
        }
        return paths;
    }
}
