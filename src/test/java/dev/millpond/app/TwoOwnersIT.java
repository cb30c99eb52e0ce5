package dev.millpond.app;

import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.LakeTopic;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two packaged apps own one partition: one started with REPLICA_COUNT=1 (partitions 0 and 1), the other with
 * REPLICA_COUNT=2 as ordinal 0 (partition 0), as a REPLICA_COUNT that disagrees with the StatefulSet, or a rollout
 * that changes it, leaves them. Both resume where the lake says and flush every 300 ms while a producer writes unique
 * ids. The partition fence refuses every flush that would land records the other already landed; the refused process
 * exits 1 and this test restarts it, as the orchestrator would. At the end one process drains the topic: every id is
 * in the table exactly once, and the offsets audit finds no overlap.
 */
class TwoOwnersIT {

    private static final Path LOGS = Path.of("target", "two-owners-logs");
    private static final String FENCE = "Partition fence: partition 0 of ";

    @Test
    void twoOwnersOfOnePartitionOverSeveralFlushesLandEveryRecordOnce() throws Exception {
        LakeTopic setup = LakeTopic.create("owners", 2);
        Map<String, String> whole = setup.environment("FLUSH_INTERVAL_MS", "300");
        Map<String, String> half = new HashMap<>(whole);
        half.put("REPLICA_COUNT", "2");
        List<Path> logs = new ArrayList<>();
        int exits = 0;
        long produced;
        try (UniqueIdProducer producer = new UniqueIdProducer(setup.kafka(), setup.topic(), 2, new AtomicLong(), null)) {
            AppProcess[] owners = new AppProcess[2];
            List<Map<String, String>> envs = List.of(whole, half);
            try {
                long deadline = System.nanoTime() + Duration.ofSeconds(150).toNanos();
                int started = 0;
                // Several flushes, and the fence seen refusing a few of them, before the producer stops.
                while (System.nanoTime() < deadline && (count(logs, FENCE) < 2 || count(logs, "Flush: ") < 12)) {
                    for (int i = 0; i < 2; i++) {
                        if (owners[i] != null && !owners[i].isAlive()) {
                            int code = owners[i].waitForExit(Duration.ofSeconds(5));
                            assertThat(code).as("a refused owner exits 1\n" + owners[i].logTail()).isEqualTo(1);
                            assertThat(owners[i].logText()).contains(FENCE);
                            exits++;
                            owners[i].close();
                            owners[i] = null;
                        }
                        if (owners[i] == null) {
                            Path log = LOGS.resolve(setup.topic() + "-owner" + i + "-" + started++ + ".log");
                            logs.add(log);
                            owners[i] = AppProcess.start(envs.get(i), log);
                        }
                    }
                    Thread.sleep(200);
                }
            } finally {
                for (AppProcess owner : owners) {
                    if (owner != null) {
                        owner.close();
                    }
                }
            }
            producer.close();
            produced = producer.produced();
        }
        System.out.printf("[two-owners] produced=%d flushes=%d refused=%d exits=%d runs=%d%n", produced,
                count(logs, "Flush: "), count(logs, FENCE), exits, logs.size());

        Path last = LOGS.resolve(setup.topic() + "-sole-owner.log");
        try (AppProcess app = AppProcess.start(whole, last)) {
            app.awaitCommittedToEnd(setup.kafka(), setup.topic(), "millpond-" + setup.topic() + "-events",
                    Duration.ofMinutes(2));
            assertThat(app.stop(Duration.ofSeconds(60))).isZero();
        }
        assertThat(counts(setup.lake())).as("count(*), count(DISTINCT id)").containsExactly(produced, produced);
        assertThat(count(logs, FENCE)).as("flushes the fence refused").isPositive();

        Map<String, String> auditEnv = new HashMap<>(whole);
        auditEnv.put("MILLPOND_DUCKDB_EXTENSION_DIR", AppProcess.extensionDirectory().toString());
        StringWriter report = new StringWriter();
        int audit = dev.millpond.maintenance.cli.MaintenanceCli.run(auditEnv, new PrintWriter(report, true), "audit");
        assertThat(audit).as(report.toString()).isZero();
    }

    private static long count(List<Path> logs, String text) throws IOException {
        long n = 0;
        for (Path log : logs) {
            if (Files.exists(log)) {
                for (String line : Files.readAllLines(log)) {
                    n += line.contains(text) ? 1 : 0;
                }
            }
        }
        return n;
    }

    private static long[] counts(DuckLakeStack lake) throws Exception {
        try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id) FROM lake.main.events")) {
            rs.next();
            return new long[]{rs.getLong(1), rs.getLong(2)};
        }
    }
}
