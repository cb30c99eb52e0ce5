package dev.millpond.maintenance;

import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many small flushes, then compaction tier by tier on the real stack: each tier leaves fewer, larger files in its
 * band and the table's contents (row count and a checksum of every column) exactly as before.
 */
@ServiceBacked
class CompactionTiersTest {

    @Test
    void eachTierLeavesFewerLargerFilesAndTheSameRows() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            for (int i = 0; i < 20; i++) {
                lake.flush(50, 32);                  // tier 1: a few KB each
            }
            for (int i = 0; i < 3; i++) {
                lake.flush(12_000, 128);             // tier 2: ~1.5 MiB each
            }
            for (int i = 0; i < 2; i++) {
                lake.flush(80_000, 128);             // tier 3: ~10+ MiB each
            }
            String before = lake.fingerprint();
            List<Long> sizesBefore = lake.liveFileSizes();
            assertThat(lake.inBand(CompactionTier.ONE)).as("tier-1 files %s", sizesBefore).isEqualTo(20);
            assertThat(lake.inBand(CompactionTier.TWO)).as("tier-2 files %s", sizesBefore).isEqualTo(3);
            assertThat(lake.inBand(CompactionTier.THREE)).as("tier-3 files %s", sizesBefore).isEqualTo(2);

            try (LakeSession session = lake.session("test compact")) {
                LakeMaintenance maintenance = new LakeMaintenance(session);

                Compaction.Result dry = maintenance.compact(options(CompactionTier.ONE, true));
                assertThat(dry.candidates()).isEqualTo(20);
                assertThat(lake.liveFileSizes()).isEqualTo(sizesBefore);

                Compaction.Result one = maintenance.compact(options(CompactionTier.ONE, false));
                assertThat(one.tablesFailed()).isZero();
                assertThat(one.inputFiles()).isEqualTo(20);
                assertThat(lake.inBand(CompactionTier.ONE)).isEqualTo(1);
                assertThat(lake.fingerprint()).isEqualTo(before);

                Compaction.Result two = maintenance.compact(options(CompactionTier.TWO, false));
                assertThat(two.inputFiles()).isEqualTo(3);
                assertThat(lake.liveFileSizes()).hasSize(1 + 1 + 2);
                assertThat(lake.fingerprint()).isEqualTo(before);

                Compaction.Result three = maintenance.compact(options(CompactionTier.THREE, false));
                assertThat(three.inputFiles()).isEqualTo(2);
                assertThat(lake.liveFileSizes()).hasSize(3);
                assertThat(lake.fingerprint()).isEqualTo(before);
                assertThat(lake.liveFileSizes().get(2)).isGreaterThan(sizesBefore.get(sizesBefore.size() - 1));
            }
            // target_file_size is restored to what it was (unset: DuckLake's default) after each tier.
            try (LakeSession session = lake.session("test options")) {
                assertThat(LakeSession.queryRows(session.duck(), "SELECT value FROM ducklake_options('lake') "
                        + "WHERE option_name = 'target_file_size' AND scope = 'GLOBAL'"))
                        .allSatisfy(r -> assertThat(r.get(0)).isEqualTo(String.valueOf(512L << 20)));
            }
        }
    }

    private static CompactionOptions options(CompactionTier tier, boolean dryRun) {
        return new CompactionOptions(tier, Optional.empty(), dryRun, 2, "1GB", 80, OptionalInt.empty());
    }
}
