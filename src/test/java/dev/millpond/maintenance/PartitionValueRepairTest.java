package dev.millpond.maintenance;

import dev.millpond.convert.JsonToArrow;
import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.ducklake.LakeAttachment;
import dev.millpond.maintenance.MaintenanceLockTest.Run;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.ducklake.DuckLakeSink;
import dev.millpond.sinks.ducklake.DuckLakeSinkSettings;
import dev.millpond.testsupport.DuckDbSql;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import static dev.millpond.maintenance.MaintenanceLockTest.cli;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * repair-partition-values on the real stack: a table written through the sink, partitioned by year and month of a
 * payload timestamp and by a region whose names need escaping in a path, across two months; then one file's partition
 * values deleted, one corrupted, one left in the shape {@code ducklake_add_data_files} of DuckLake 1.4.4 records (all
 * values under one key index). The repair restores exactly the values DuckLake wrote. DuckLake 1.4.4 reads such a table
 * correctly (its scans prune on column statistics, not on these rows), but its merge never compacts a file whose values
 * are missing or wrong; after the repair it does, and every partition-filtered query still returns the rows written.
 */
@ServiceBacked
class PartitionValueRepairTest {

    private static final String TABLE = "clicks";
    private static final String[] REGIONS = {"eu west", "us/east+1"};

    private static DuckLakeSink sink(MaintenanceFixture lake, BufferAllocator allocator) throws SQLException {
        LakeAttachment a = lake.settings().attachment();
        return new DuckLakeSink(new DuckLakeSinkSettings(a.connection(), a.catalog(), a.dataPath(), "main", TABLE,
                a.s3Settings(), a.maxRetryCount(), a.memoryLimit(), Optional.of("year(ts), month(ts), region"),
                List.of(), a.extensionDirectory(), Optional.empty()),
                new MillpondMetrics(new SimpleMeterRegistry(), "t-" + TABLE, ""), allocator);
    }

    /** region, month of each flush (0: both months); several files per partition, so there is something to merge. */
    private static final int[][] FLUSHES = {{0, 11}, {0, 12}, {0, 11}, {1, 11}, {1, 12}, {1, 0}};
    private static Map<String, Long> write(MaintenanceFixture lake, BufferAllocator allocator) throws Exception {
        try (Connection q = lake.lake.openQueryConnection()) {
            // The payload's ts arrives as text; the table's TIMESTAMPTZ column makes the sink cast it.
            DuckDbSql.execute(q, "CREATE TABLE lake.main." + TABLE + " (id BIGINT, region VARCHAR, ts TIMESTAMPTZ, "
                    + "_inserted_at TIMESTAMPTZ)");
        }
        Map<String, Long> expected = new TreeMap<>();
        int id = 0;
        try (DuckLakeSink sink = sink(lake, allocator)) {
            for (int[] flush : FLUSHES) {
                String region = REGIONS[flush[0]];
                List<byte[]> values = new ArrayList<>();
                for (int r = 0; r < 25; r++) {
                    int month = flush[1] == 0 ? 11 + r % 2 : flush[1];
                    String ts = "2026-%02d-%02dT%02d:%02d:00Z".formatted(month, 1 + r % 28, r % 24, r);
                    values.add(("{\"id\":" + id++ + ",\"region\":\"" + region + "\",\"ts\":\"" + ts + "\"}")
                            .getBytes(StandardCharsets.UTF_8));
                    expected.merge(month + "|" + region, 1L, Long::sum);
                }
                try (VectorSchemaRoot root = new JsonToArrow(allocator).convert(values).root()) {
                    assertThat(sink.write(new FlushBatch(root.getSchema(), List.of(root), root.getRowCount())))
                            .isEqualTo(25);
                }
            }
        }
        return expected;
    }

    /** data_file_id → its recorded partition values, {@code index:value} joined with commas. */
    private static Map<Long, String> recorded(MaintenanceFixture lake) throws SQLException {
        Map<Long, String> values = new TreeMap<>();
        try (Connection pg = lake.catalog(); Statement s = pg.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT df.data_file_id, coalesce(string_agg(v.partition_key_index || ':' || v.partition_value, ',' "
                        + "ORDER BY v.partition_key_index, v.partition_value), '') FROM ducklake_data_file df "
                        + "JOIN ducklake_table t USING (table_id) LEFT JOIN ducklake_file_partition_value v "
                        + "USING (data_file_id) WHERE df.end_snapshot IS NULL AND t.table_name = '" + TABLE
                        + "' GROUP BY df.data_file_id")) {
            while (rs.next()) {
                values.put(rs.getLong(1), rs.getString(2));
            }
        }
        return values;
    }

    private static String fingerprint(MaintenanceFixture lake) throws SQLException {
        try (Connection q = lake.lake.openQueryConnection(); Statement s = q.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), sum(hash(id, region, ts)::HUGEINT) FROM lake.main."
                     + TABLE)) {
            rs.next();
            return rs.getLong(1) + "/" + rs.getString(2);
        }
    }

    /** Each (month, region)'s row count through a query filtered on the partition columns. */
    private static Map<String, Long> filteredCounts(MaintenanceFixture lake, Map<String, Long> keys)
            throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection q = lake.lake.openQueryConnection()) {
            for (String key : keys.keySet()) {
                String[] mr = key.split("\\|");
                counts.put(key, DuckDbSql.queryLong(q, "SELECT count(*) FROM lake.main." + TABLE + " WHERE year(ts) "
                        + "= 2026 AND month(ts) = " + mr[0] + " AND region = " + DuckLakeSql.literal(mr[1])));
            }
        }
        return counts;
    }

    private static long fileWith(Map<Long, String> recorded, String values) {
        return recorded.entrySet().stream().filter(e -> e.getValue().equals(values)).findFirst().orElseThrow().getKey();
    }

    @Test
    void missingWrongAndMisindexedValuesAreRewrittenFromThePaths() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture(); BufferAllocator allocator = new RootAllocator()) {
            Map<String, Long> expected = write(lake, allocator);
            Map<Long, String> good = recorded(lake);
            assertThat(good).hasSize(7).allSatisfy((id, v) -> assertThat(v).matches("0:2026,1:1[12],2:.+"));
            assertThat(good.values()).contains("0:2026,1:11,2:eu west", "0:2026,1:12,2:us/east+1");
            String fingerprint = fingerprint(lake);
            long deleted = fileWith(good, "0:2026,1:11,2:eu west");
            long corrupted = fileWith(good, "0:2026,1:12,2:us/east+1");
            long misindexed = fileWith(good, "0:2026,1:11,2:us/east+1");
            damage(lake, deleted, corrupted);
            // The shape ducklake_add_data_files of DuckLake 1.4.4 records for a hive path: every value under index 1.
            lake.catalogUpdate("UPDATE ducklake_file_partition_value SET partition_key_index = 1 WHERE data_file_id = "
                    + misindexed);
            Map<Long, String> broken = recorded(lake);
            assertThat(broken.get(deleted)).isEmpty();

            Run dry = cli(lake, "repair-partition-values", "--dry-run");
            assertThat(dry.exit()).as(dry.err()).isZero();
            assertThat(dry.out()).doesNotContain("Target catalog").contains("3 file(s) to repair, 0 left alone");
            for (long id : List.of(deleted, corrupted, misindexed)) {
                assertThat(dry.out()).containsPattern("(?m)^" + id + "\tmain\\." + TABLE + "\t");
            }
            assertThat(recorded(lake)).isEqualTo(broken);

            Run run = cli(lake, "repair-partition-values");
            assertThat(run.exit()).as(run.err()).isZero();
            assertThat(run.out()).startsWith("Target catalog: postgres ").contains("3 file(s) repaired, 0 left alone");
            assertThat(recorded(lake)).isEqualTo(good);

            Run again = cli(lake, "repair-partition-values");
            assertThat(again.exit()).isZero();
            assertThat(again.out()).contains("0 file(s) repaired, 0 left alone");

            // What the damage costs: DuckLake's merge (compaction) groups files by their recorded values, so a file
            // with missing or wrong values is never merged with its partition's other files.
            damage(lake, deleted, corrupted);
            merge(lake);
            assertThat(recorded(lake)).containsKeys(deleted, corrupted);
            assertThat(fingerprint(lake)).isEqualTo(fingerprint);
            assertThat(filteredCounts(lake, expected)).isEqualTo(expected);

            try (LakeSession session = lake.session("test repair")) {
                assertThat(new LakeMaintenance(session).repairPartitionValues(false)).extracting(f -> f.dataFileId())
                        .containsExactlyInAnyOrder(deleted, corrupted);
            }
            merge(lake);
            // One file per partition now, each holding the values of its own path.
            assertThat(recorded(lake)).doesNotContainKeys(deleted, corrupted).hasSize(expected.size());
            assertThat(Set.copyOf(recorded(lake).values())).hasSize(expected.size());
            assertThat(fingerprint(lake)).isEqualTo(fingerprint);
            assertThat(filteredCounts(lake, expected)).isEqualTo(expected);
            try (LakeSession session = lake.session("test check")) {
                assertThat(new LakeMaintenance(session).repairPartitionValues(true)).isEmpty();
            }
        }
    }

    /** Deletes one file's partition values and moves another's month to October. */
    private static void damage(MaintenanceFixture lake, long deleted, long corrupted) throws SQLException {
        lake.catalogUpdate("DELETE FROM ducklake_file_partition_value WHERE data_file_id = " + deleted);
        lake.catalogUpdate("UPDATE ducklake_file_partition_value SET partition_value = '10' WHERE data_file_id = "
                + corrupted + " AND partition_key_index = 1");
    }

    private static void merge(MaintenanceFixture lake) throws SQLException {
        try (LakeSession session = lake.session("test merge")) {
            new LakeMaintenance(session).compactProbe(TABLE, 10);
        }
    }

    @Test
    void aFileWhosePathHasNoSegmentsIsReportedAndLeftAloneAndTheCommandObeysTheLock() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture(); BufferAllocator allocator = new RootAllocator()) {
            write(lake, allocator);
            String fingerprint = fingerprint(lake);
            long moved = recorded(lake).keySet().iterator().next();
            String path;
            try (Connection pg = lake.catalog(); Statement s = pg.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT path FROM ducklake_data_file WHERE data_file_id = " + moved)) {
                rs.next();
                path = rs.getString(1);
            }
            // The same object under a flat name: the file still reads, but its path no longer says its partition.
            String tablePrefix = lake.lake.dataPrefix() + "main/" + TABLE + "/";
            String flat = "flat-" + path.substring(path.lastIndexOf('/') + 1);
            Services.s3().client().copyObject(b -> b.sourceBucket(lake.lake.bucket()).sourceKey(tablePrefix + path)
                    .destinationBucket(lake.lake.bucket()).destinationKey(tablePrefix + flat));
            lake.catalogUpdate("UPDATE ducklake_data_file SET path = '" + flat + "' WHERE data_file_id = " + moved);
            lake.catalogUpdate("DELETE FROM ducklake_file_partition_value WHERE data_file_id = " + moved);
            assertThat(fingerprint(lake)).isEqualTo(fingerprint);
            Map<Long, String> before = recorded(lake);

            Run run = cli(lake, "repair-partition-values");
            assertThat(run.exit()).as(run.err()).isZero();
            assertThat(run.out()).contains(moved + "\tmain." + TABLE + "\t" + flat + "\trecorded {} -> cannot repair: "
                    + "the path has no key=value segment for any partition key").contains("0 file(s) repaired, "
                    + "1 left alone");
            assertThat(recorded(lake)).isEqualTo(before);

            assertThat(cli(lake, "repair-partition-values", "--days", "3").exit()).isEqualTo(2);
            try (LakeSession holder = lake.session("compact --tier 1")) {
                holder.lock();
                Run locked = cli(lake, "repair-partition-values");
                assertThat(locked.exit()).isEqualTo(1);
                assertThat(locked.out()).startsWith("Target catalog: postgres ");
                assertThat(locked.err()).contains("holding the advisory lock");
                assertThat(cli(lake, "repair-partition-values", "--dry-run").exit()).isZero();
            }
        }
    }
}
