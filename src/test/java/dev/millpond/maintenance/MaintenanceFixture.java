package dev.millpond.maintenance;

import dev.millpond.testsupport.DuckDbExtensions;
import dev.millpond.testsupport.DuckDbSql;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.Services;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A fresh lake on the real stack (Postgres catalog, S3 server) with a table written flush by flush, plus what the
 * maintenance tests check: a fingerprint of the table's contents, the catalog's files and the objects in the bucket.
 */
final class MaintenanceFixture implements AutoCloseable {

    static final String TABLE = "events";

    final DuckLakeStack lake = Services.newDuckLake();
    final Map<String, String> env = new HashMap<>(lake.environment());
    private final Connection query;
    private int flushes;

    MaintenanceFixture() throws SQLException {
        env.put("MILLPOND_DUCKDB_EXTENSION_DIR", DuckDbExtensions.directory().toAbsolutePath().toString());
        query = lake.openQueryConnection();
        DuckDbSql.execute(query, "CREATE TABLE lake.main." + TABLE + " (id BIGINT, flush INTEGER, name VARCHAR, "
                + "amount DOUBLE, payload VARCHAR, happened_at TIMESTAMPTZ)");
    }

    MaintenanceSettings settings() {
        return MaintenanceSettings.fromEnvironment(env);
    }

    LakeSession session(String purpose) throws SQLException {
        return LakeSession.open(settings(), purpose);
    }

    /**
     * One INSERT, so one data file — if it has more than 10 rows: DuckDB 1.5's DuckLake keeps smaller inserts in the
     * catalog (data inlining). {@code payloadHexChars} of md5 text per row (incompressible enough that the file size
     * follows the row count).
     */
    void flush(int rows, int payloadHexChars) throws SQLException {
        int f = ++flushes;
        int md5s = Math.max(1, payloadHexChars / 32);
        StringBuilder payload = new StringBuilder("''");
        for (int i = 0; i < md5s; i++) {
            payload.append(" || md5((r * 31 + ").append(i).append(" + ").append(f * 1_000_003L).append(")::VARCHAR)");
        }
        DuckDbSql.execute(query, "INSERT INTO lake.main." + TABLE + " SELECT " + f + " * 10000000 + r, " + f
                + ", 'name-' || (r % 97), r * 0.5 + " + f + ", " + payload + ", TIMESTAMPTZ '2026-01-01' + INTERVAL (r) "
                + "SECOND FROM range(" + rows + ") t(r)");
    }

    /** Row count and an order-independent checksum over every column. */
    String fingerprint() throws SQLException {
        try (Statement s = query.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*), "
                + "sum(hash(id, flush, name, amount, payload, happened_at)::HUGEINT) FROM lake.main." + TABLE)) {
            rs.next();
            return rs.getLong(1) + "/" + rs.getString(2);
        }
    }

    long rowCount() throws SQLException {
        return DuckDbSql.queryLong(query, "SELECT count(*) FROM lake.main." + TABLE);
    }

    /** Sizes of the table's live data files. */
    List<Long> liveFileSizes() throws SQLException {
        List<Long> sizes = new ArrayList<>();
        try (Connection pg = catalog(); Statement s = pg.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT file_size_bytes FROM ducklake_data_file df JOIN ducklake_table t USING (table_id) "
                        + "WHERE df.end_snapshot IS NULL AND t.end_snapshot IS NULL AND t.table_name = '" + TABLE
                        + "' ORDER BY 1")) {
            while (rs.next()) {
                sizes.add(rs.getLong(1));
            }
        }
        return sizes;
    }

    long inBand(CompactionTier tier) throws SQLException {
        return liveFileSizes().stream().filter(tier::contains).count();
    }

    Connection catalog() throws SQLException {
        return Services.postgres().connect(lake.catalogDatabase());
    }

    void catalogUpdate(String sql) throws SQLException {
        try (Connection pg = catalog(); Statement s = pg.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    long catalogLong(String sql) throws SQLException {
        try (Connection pg = catalog(); Statement s = pg.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Moves every snapshot and queued deletion {@code days} into the past, as if that much time had passed. */
    void age(int days) throws SQLException {
        catalogUpdate("UPDATE ducklake_snapshot SET snapshot_time = snapshot_time - INTERVAL '" + days + " days'");
        catalogUpdate("UPDATE ducklake_files_scheduled_for_deletion SET schedule_start = schedule_start - INTERVAL '"
                + days + " days'");
    }

    /** Object keys in the lake's bucket, as s3:// URIs. */
    Set<String> objects() {
        Set<String> keys = new TreeSet<>();
        for (String key : lake.listDataFiles()) {
            keys.add("s3://" + lake.bucket() + "/" + key);
        }
        return keys;
    }

    /** Every file a catalog row still references: data and delete files of any snapshot, and the deletion queue. */
    Set<String> referenced(boolean includingQueue) throws SQLException {
        Set<String> files = new TreeSet<>();
        try (Connection pg = catalog()) {
            files.addAll(CatalogFiles.dataFiles(pg, false).values());
            files.addAll(CatalogFiles.deleteFiles(pg).values());
            if (includingQueue) {
                CatalogFiles.scheduledForDeletion(pg).forEach(q -> files.add(q.absolutePath()));
            }
        }
        return files;
    }

    long queued() throws SQLException {
        return catalogLong("SELECT count(*) FROM ducklake_files_scheduled_for_deletion");
    }

    void deleteObject(String s3Uri) {
        String key = s3Uri.substring(("s3://" + lake.bucket() + "/").length());
        Services.s3().client().deleteObject(b -> b.bucket(lake.bucket()).key(key));
    }

    @Override
    public void close() throws SQLException {
        query.close();
    }
}
