package dev.millpond.maintenance;

import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.maintenance.cli.MaintenanceCli;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.MillpondEnvironment;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged app with a scheduled tier-1 compaction every two seconds while a producer keeps writing and the pump
 * flushes every 200 ms: the job runs several times, merges the pump's small files, and the pump goes on flushing
 * through it; at the end every event is in the lake exactly once, Kafka's commits are at the end offsets and the
 * offsets audit is clean.
 */
class ScheduledMaintenanceIT {

    private static final Path LOGS = Path.of("target", "e2e-logs");
    private static final Pattern MERGED = Pattern.compile("compact tier-1: main\\.events: (\\d+) file\\(s\\) -> (\\d+)");

    private final KafkaBroker kafka = Services.kafka();
    private final DuckLakeStack lake = Services.newDuckLake();
    private final String topic = Services.uniqueName("sched");

    @Test
    void aScheduledCompactionRunsWhileThePumpWrites() throws Exception {
        kafka.createTopic(topic, 4);
        Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic, "FLUSH_INTERVAL_MS", "200",
                "MILLPOND_LOG_FORMAT", "text", "MILLPOND_MAINTENANCE_COMPACT_TIER1_EVERY", "2s",
                "MILLPOND_MAINTENANCE_MEMORY_LIMIT", "256MB");
        AtomicLong produced = new AtomicLong();
        AtomicBoolean producing = new AtomicBoolean(true);
        Thread producer = new Thread(() -> {
            long id = 0;
            while (producing.get()) {
                for (int p = 0; p < 4; p++) {
                    kafka.produce(topic, p, SampleEvents.events(id, 25));
                    id += 25;
                }
                produced.set(id);
                sleep(150);
            }
        }, "producer");
        try (AppProcess app = AppProcess.start(env, LOGS.resolve(topic + ".log"))) {
            producer.start();
            app.await("a first scheduled compaction that merged files", Duration.ofMinutes(2),
                    () -> merges(app) >= 1);
            double flushesAtFirstMerge = app.metric("millpond_batches_flushed_total").orElseThrow();
            app.await("two more scheduled compactions", Duration.ofMinutes(2), () -> merges(app) >= 3);
            assertThat(app.metric("millpond_batches_flushed_total").orElseThrow())
                    .as("the pump kept flushing while the jobs ran").isGreaterThan(flushesAtFirstMerge);
            producing.set(false);
            producer.join(30_000);
            long total = produced.get();
            app.await("every event in the lake", Duration.ofMinutes(2), () -> counts()[1] == total);
            app.await("offsets committed to the end", Duration.ofSeconds(60), () ->
                    kafka.committedOffsets("millpond-" + topic + "-events", topic).equals(kafka.endOffsets(topic)));
            assertThat(counts()).as("count(*), count(DISTINCT id)").containsExactly(total, total);
            assertThat(app.get("/healthz").status()).isEqualTo(200);
            assertThat(app.stop(Duration.ofSeconds(60))).isZero();

            StringWriter out = new StringWriter();
            Map<String, String> auditEnv = new java.util.HashMap<>(env);
            auditEnv.put("MILLPOND_DUCKDB_EXTENSION_DIR", AppProcess.extensionDirectory().toString());
            int audit = MaintenanceCli.run(auditEnv, new PrintWriter(out, true), "audit");
            assertThat(audit).as(out.toString()).isZero();
            assertThat(liveDataFiles()).as("live data files after compactions")
                    .isLessThan((long) app.metric("millpond_batches_flushed_total").orElse(1e9));
        } finally {
            producing.set(false);
            producer.join(30_000);
        }
    }

    /** Scheduled tier-1 runs that merged at least two files. */
    private static int merges(AppProcess app) {
        try {
            Matcher m = MERGED.matcher(app.logText());
            int n = 0;
            while (m.find()) {
                if (Long.parseLong(m.group(1)) >= 2) {
                    n++;
                }
            }
            return n;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long[] counts() {
        try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id) FROM lake.main.events")) {
            rs.next();
            return new long[]{rs.getLong(1), rs.getLong(2)};
        } catch (Exception e) {
            return new long[]{-1, -1};
        }
    }

    private long liveDataFiles() throws Exception {
        try (Connection pg = Services.postgres().connect(lake.catalogDatabase()); Statement s = pg.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM ducklake_data_file df JOIN ducklake_table t "
                     + "USING (table_id) WHERE df.end_snapshot IS NULL AND t.table_name = 'events'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
