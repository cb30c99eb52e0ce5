package dev.millpond.maintenance;

import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Expiry and cleanup on the real stack: after compaction leaves replaced files behind and the snapshots age, expiry
 * plus cleanup remove exactly the objects no catalog row references any more, and nothing a row still references.
 * A planted orphan (a queued object deleted behind the catalog's back) is found and healed.
 */
@ServiceBacked
class SnapshotLifecycleTest {

    private static void smallFlushesThenCompact(MaintenanceFixture lake, int flushes) throws Exception {
        for (int i = 0; i < flushes; i++) {
            lake.flush(40, 32);
        }
        try (LakeSession session = lake.session("test compact")) {
            new LakeMaintenance(session).compact(new CompactionOptions(CompactionTier.ONE, Optional.empty(), false, 2,
                    "1GB", 80, OptionalInt.empty()));
        }
    }

    @Test
    void expireThenCleanupDeletesOnlyUnreferencedObjects() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            for (int i = 0; i < 5; i++) {
                lake.flush(40, 32);
            }
            try (var q = lake.lake.openQueryConnection()) {
                // A whole file deleted and a file rewritten: files only the older snapshots still see.
                dev.millpond.testsupport.DuckDbSql.execute(q, "DELETE FROM lake.main.events WHERE flush = 2");
                dev.millpond.testsupport.DuckDbSql.execute(q, "UPDATE lake.main.events SET amount = -1 WHERE flush = 4");
            }
            String before = lake.fingerprint();
            Set<String> objects = lake.objects();
            assertThat(objects).isEqualTo(lake.referenced(true));
            lake.age(2);
            try (LakeSession session = lake.session("test expire")) {
                LakeMaintenance m = new LakeMaintenance(session);
                assertThatThrownBy(() -> m.expire(0, true)).hasMessageContaining("--days must be >= 1");
                long snapshots = lake.catalogLong("SELECT count(*) FROM ducklake_snapshot");
                assertThat(m.expire(1, true)).isPositive();
                assertThat(lake.catalogLong("SELECT count(*) FROM ducklake_snapshot")).isEqualTo(snapshots);
                assertThat(m.expire(1, false)).isPositive();
                assertThat(lake.catalogLong("SELECT count(*) FROM ducklake_snapshot")).isEqualTo(1);
                assertThat(lake.queued()).isPositive();
                lake.age(2);
                assertThat(m.cleanup(1, true)).hasSize((int) lake.queued());
                assertThat(lake.objects()).isEqualTo(objects);
                m.cleanup(1, false);
            }
            assertThat(lake.queued()).isZero();
            Set<String> referenced = lake.referenced(true);
            assertThat(lake.objects()).as("exactly the objects catalog rows still reference").isEqualTo(referenced);
            assertThat(objects).hasSizeGreaterThan(referenced.size());
            assertThat(lake.fingerprint()).isEqualTo(before);
        }
    }

    @Test
    void expiryAndCleanupRemoveReplacedFilesAndKeepTheRows() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            smallFlushesThenCompact(lake, 8);
            lake.flush(40, 32);
            String before = lake.fingerprint();
            assertThat(lake.queued()).isEqualTo(8);
            lake.age(2);
            try (LakeSession session = lake.session("test maintain")) {
                new LakeMaintenance(session).maintain(1, false);
            }
            assertThat(lake.queued()).isZero();
            assertThat(lake.objects()).isEqualTo(lake.referenced(false));
            assertThat(lake.fingerprint()).isEqualTo(before);
        }
    }

    @Test
    void postgresNativeExpiryQueuesDeadFilesInBatchesAndCleanupRemovesThem() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            for (int i = 0; i < 6; i++) {
                lake.flush(40, 32);
            }
            lake.catalogUpdate("DELETE FROM ducklake_files_scheduled_for_deletion");
            try (var q = lake.lake.openQueryConnection()) {
                // Rewrites leave dead files behind that only old snapshots see.
                dev.millpond.testsupport.DuckDbSql.execute(q, "DELETE FROM lake.main.events WHERE flush = 2");
                dev.millpond.testsupport.DuckDbSql.execute(q, "UPDATE lake.main.events SET name = 'renamed' "
                        + "WHERE flush = 3");
            }
            String before = lake.fingerprint();
            long snapshots = lake.catalogLong("SELECT count(*) FROM ducklake_snapshot");
            lake.age(2);
            try (LakeSession session = lake.session("test expire-snapshots")) {
                LakeMaintenance m = new LakeMaintenance(session);
                assertThat(m.expireSnapshots(1, 3, null, true)).isEqualTo(snapshots - 1);
                assertThat(m.expireSnapshots(1, 3, 1, false)).isEqualTo(3);   // --num-batches 1
                assertThat(lake.catalogLong("SELECT count(*) FROM ducklake_snapshot")).isEqualTo(snapshots - 3);
                assertThat(m.expireSnapshots(1, 3, null, false)).isEqualTo(snapshots - 4);
                assertThat(lake.catalogLong("SELECT count(*) FROM ducklake_snapshot")).isEqualTo(1);
                assertThat(lake.queued()).isPositive();
                assertThat(lake.fingerprint()).isEqualTo(before);
                m.cleanupAll();
            }
            assertThat(lake.queued()).isZero();
            assertThat(lake.objects()).isEqualTo(lake.referenced(false));
            assertThat(lake.fingerprint()).isEqualTo(before);
            lake.flush(10, 32); // the catalog still takes writes
            assertThat(lake.rowCount()).isEqualTo(Long.parseLong(before.split("/")[0]) + 10);
        }
    }

    @Test
    void aPlantedOrphanIsFoundAndHealedAndCleanupAllThenSucceeds() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            smallFlushesThenCompact(lake, 5);
            String before = lake.fingerprint();
            List<QueuedFile> queue;
            try (var pg = lake.catalog()) {
                queue = CatalogFiles.scheduledForDeletion(pg);
            }
            assertThat(queue).hasSize(5);
            QueuedFile planted = queue.get(2);
            lake.deleteObject(planted.absolutePath());
            try (LakeSession session = lake.session("test heal")) {
                LakeMaintenance m = new LakeMaintenance(session);
                assertThat(m.findOrphans()).containsExactly(planted);
                assertThat(m.healOrphans(true)).containsExactly(planted);
                assertThat(lake.queued()).isEqualTo(5);
                assertThat(m.healOrphans(false)).containsExactly(planted);
                assertThat(lake.queued()).isEqualTo(4);
                assertThat(m.findOrphans()).isEmpty();
                assertThat(m.cleanupAllSafe(3)).isEqualTo(1);
            }
            assertThat(lake.queued()).isZero();
            assertThat(lake.objects()).isEqualTo(lake.referenced(false));
            assertThat(lake.fingerprint()).isEqualTo(before);
        }
    }

    @Test
    void healOrphansRefusesWhenAnOrphanPathIsALiveDataFile() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            lake.flush(40, 32);
            lake.flush(40, 32);
            String livePath;
            String relative;
            try (var pg = lake.catalog()) {
                livePath = CatalogFiles.dataFiles(pg, true).values().iterator().next();
                relative = livePath.substring(CatalogFiles.dataPath(pg).length());
            }
            // A queue row for a live file whose object went missing: healing it would be wrong either way.
            lake.catalogUpdate("INSERT INTO ducklake_files_scheduled_for_deletion VALUES (999, '" + relative
                    + "', true, now())");
            lake.deleteObject(livePath);
            try (LakeSession session = lake.session("test gate")) {
                assertThatThrownBy(() -> new LakeMaintenance(session).healOrphans(false))
                        .hasMessageContaining("safety gate B1");
            }
            assertThat(lake.queued()).isEqualTo(1);
        }
    }

    @Test
    void dedupDeletionsKeepsOneRowPerPath() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            smallFlushesThenCompact(lake, 3);
            lake.catalogUpdate("INSERT INTO ducklake_files_scheduled_for_deletion "
                    + "SELECT * FROM ducklake_files_scheduled_for_deletion");
            assertThat(lake.queued()).isEqualTo(6);
            try (LakeSession session = lake.session("test dedup")) {
                LakeMaintenance m = new LakeMaintenance(session);
                assertThat(m.dedupDeletions(true)).isEqualTo(3);
                assertThat(lake.queued()).isEqualTo(6);
                assertThat(m.dedupDeletions(false)).isEqualTo(3);
                assertThat(lake.queued()).isEqualTo(3);
                m.cleanupAll();
            }
            assertThat(lake.objects()).isEqualTo(lake.referenced(false));
        }
    }
}
