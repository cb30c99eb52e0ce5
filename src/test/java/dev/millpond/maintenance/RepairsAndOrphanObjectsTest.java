package dev.millpond.maintenance;

import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.DuckDbSql;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

import java.time.Duration;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** purge-orphan-stats, orphans (objects no row references), checkpoint and compact-probe on the real stack. */
@ServiceBacked
class RepairsAndOrphanObjectsTest {

    @Test
    void purgeOrphanStatsDeletesTheStatsOfDroppedTablesOnly() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            lake.flush(10, 32);
            try (var q = lake.lake.openQueryConnection()) {
                DuckDbSql.execute(q, "CREATE TABLE lake.main.gone (id INTEGER, v VARCHAR)");
                DuckDbSql.execute(q, "INSERT INTO lake.main.gone VALUES (1, 'a'), (2, 'b')");
                DuckDbSql.execute(q, "DROP TABLE lake.main.gone");
            }
            long liveStats = lake.catalogLong("SELECT count(*) FROM ducklake_table_column_stats cs WHERE EXISTS "
                    + "(SELECT 1 FROM ducklake_table t WHERE t.table_id = cs.table_id AND t.end_snapshot IS NULL)");
            try (LakeSession session = lake.session("test purge")) {
                LakeMaintenance m = new LakeMaintenance(session);
                long[] dry = m.purgeOrphanStats(true);
                assertThat(dry[0]).isEqualTo(1);
                assertThat(dry[1]).isEqualTo(2);
                assertThat(new OrphanStats(session).counts()).containsExactly(1, 2);
                m.purgeOrphanStats(false);
                assertThat(new OrphanStats(session).counts()).containsExactly(0, 0);
            }
            assertThat(lake.catalogLong("SELECT count(*) FROM ducklake_table_column_stats")).isEqualTo(liveStats);
            lake.flush(5, 32); // the catalog still commits
            assertThat(lake.rowCount()).isEqualTo(15);
        }
    }

    @Test
    void orphansDeletesUnreferencedObjectsAndNothingReferenced() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            lake.flush(20, 32);
            lake.flush(20, 32);
            String before = lake.fingerprint();
            Set<String> referenced = lake.referenced(true);
            String strayKey = lake.lake.dataPrefix() + "main/events/ducklake-stray.parquet";
            Services.s3().client().putObject(b -> b.bucket(lake.lake.bucket()).key(strayKey),
                    RequestBody.fromString("not a real file"));
            String stray = "s3://" + lake.lake.bucket() + "/" + strayKey;
            try (LakeSession session = lake.session("test orphans")) {
                // DuckLake deletes only objects older than its delete_older_than option; shorten it for the test.
                LakeSession.execute(session.duck(), "CALL ducklake_set_option('lake', 'delete_older_than', '1s')");
                LakeMaintenance m = new LakeMaintenance(session);
                // The dry run lists the stray once it is older than that (by DuckDB's clock): wait for that, not 2 s.
                assertThat(Await.within(Duration.ofSeconds(60), "the stray old enough to be an orphan")
                        .pollInterval(Duration.ofMillis(250)).until(() -> m.orphans(true), found -> found.contains(stray)))
                        .containsExactly(stray);
                assertThat(lake.objects()).contains(stray);
                assertThat(m.orphans(false)).containsExactly(stray);
            }
            assertThat(lake.objects()).isEqualTo(referenced);
            assertThat(lake.fingerprint()).isEqualTo(before);
        }
    }

    @Test
    void checkpointAndCompactProbeKeepTheRows() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            for (int i = 0; i < 4; i++) {
                lake.flush(20, 32);
            }
            String before = lake.fingerprint();
            try (LakeSession session = lake.session("test probe")) {
                LakeMaintenance m = new LakeMaintenance(session);
                m.compactProbe("events", 2);
                assertThat(lake.liveFileSizes()).hasSizeBetween(1, 3);
                assertThat(lake.fingerprint()).isEqualTo(before);
                m.checkpoint();
            }
            assertThat(lake.liveFileSizes()).hasSizeLessThanOrEqualTo(3);
            assertThat(lake.fingerprint()).isEqualTo(before);
        }
    }
}
