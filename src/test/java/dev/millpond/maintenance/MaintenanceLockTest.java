package dev.millpond.maintenance;

import dev.millpond.maintenance.cli.MaintenanceCli;
import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The advisory lock stops a second concurrent run, which says who holds it; dry runs need no lock. */
@ServiceBacked
class MaintenanceLockTest {

    @Test
    void aSecondRunCannotTakeTheLockAndSaysWhoHoldsIt() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            lake.flush(10, 32);
            try (LakeSession first = lake.session("compact --tier 1")) {
                first.lock();
                try (LakeSession second = lake.session("cleanup-all")) {
                    assertThatThrownBy(second::lock)
                            .isInstanceOf(MaintenanceLock.LockHeldException.class)
                            .hasMessageContaining("holding the advisory lock")
                            .hasMessageContaining("millpond-maintenance compact --tier 1");
                    assertThatThrownBy(() -> new LakeMaintenance(second).cleanupAll())
                            .isInstanceOf(MaintenanceLock.LockHeldException.class);
                    // A dry run takes no lock.
                    assertThat(new LakeMaintenance(second).cleanup(1, true)).isEmpty();
                }

                // The CLI: exit 1 with the holder on stderr for a destructive command, 0 for a dry run.
                Run locked = cli(lake, "cleanup-all");
                assertThat(locked.exit()).isEqualTo(1);
                assertThat(locked.out()).startsWith("Target catalog: postgres ");
                assertThat(locked.err()).contains("holding the advisory lock", "compact --tier 1");
                assertThat(cli(lake, "cleanup", "--days", "3", "--dry-run").exit()).isZero();
            }
            // Released with the first session: the next run takes it.
            assertThat(cli(lake, "cleanup-all").exit()).isZero();
        }
    }

    @Test
    void badArgumentsExitTwo() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            assertThat(cli(lake, "expire", "--days", "0").exit()).isEqualTo(2);
            assertThat(cli(lake, "expire", "--days", "0").err()).contains("--days must be >= 1");
            assertThat(cli(lake, "compact", "--tier", "4").exit()).isEqualTo(2);
            assertThat(cli(lake, "expire-snapshots", "--batch-size", "10001").exit()).isEqualTo(2);
            assertThat(cli(lake, "cleanup-all", "--dry-run").exit()).isEqualTo(2);
            assertThat(cli(lake, "no-such-command").exit()).isEqualTo(2);
            assertThat(cli(lake, "ensure-indexes", "--dry-run").exit()).isZero();
            assertThat(cli(lake, "ensure-indexes").exit()).isZero();
            assertThat(lake.catalogLong("SELECT count(*) FROM pg_indexes WHERE indexname LIKE 'millpond_%'"))
                    .isEqualTo(CatalogIndexes.INDEXES.size());
            assertThat(cli(lake, "find-orphans").out()).isEmpty();
        }
    }

    record Run(int exit, String out, String err) {
    }

    static Run cli(MaintenanceFixture lake, String... args) {
        StringWriter out = new StringWriter();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream previous = System.err;
        int exit;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            exit = MaintenanceCli.run(lake.env, new PrintWriter(out, true), args);
        } finally {
            System.setErr(previous);
        }
        return new Run(exit, out.toString(), err.toString(StandardCharsets.UTF_8));
    }
}
