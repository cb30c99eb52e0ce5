package dev.millpond.app;

import dev.millpond.testsupport.events.PostHogEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.LakeTopic;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged app under a memory limit far below its FLUSH_SIZE: it logs the budget it chose, flushes when the
 * pending rows reach Arrow's share (a size flush, long before FLUSH_SIZE or the interval), and lands every row.
 */
class MemoryBudgetIT {

    private static final int EVENTS = 100_000; // ~119 MB of JSON, ~109 MB of Arrow: about three times the pending share below

    @Test
    void aFlushSizeLargerThanTheLimitAllowsFlushesEarlyAndLandsEverything() throws Exception {
        LakeTopic setup = LakeTopic.create("budget", 1);
        for (int from = 0; from < EVENTS; from += 10_000) {
            setup.produce(0, PostHogEvents.events(from, 10_000));
        }
        // 640 MiB: heap ~247 + JVM native ~127 + slack 64 leave ~200 MiB, of which DuckDB keeps its 128 MiB floor and
        // Arrow gets the rest, ~74 MiB. Writes overlap (the default), so two flushes and their copies share it: the
        // pump flushes at ~18 MiB pending, whatever FLUSH_SIZE (1 GB here) says.
        Map<String, String> env = setup.environment();
        env.put("MILLPOND_MEMORY_LIMIT", "640Mi");
        env.put("FLUSH_SIZE", "1000000000");
        env.put("FLUSH_INTERVAL_MS", "600000");
        Path log = Path.of("target", "e2e-logs", "memory-budget-" + setup.topic() + ".log");
        try (AppProcess app = AppProcess.start(env, log, List.of("-Xmx256m", "-XX:+UseSerialGC"))) {
            app.await("two size flushes", Duration.ofMinutes(3),
                    () -> app.metric("millpond_batches_flushed_total", "trigger", "size").orElse(0) >= 2);
            String metrics = app.metrics();
            double flushes = AppProcess.metricIn(metrics, "millpond_flush_size_bytes_count").orElse(0);
            double bytes = AppProcess.metricIn(metrics, "millpond_flush_size_bytes_sum").orElse(0);
            assertThat(bytes / flushes).as("mean flush size").isLessThan(25e6).isGreaterThan(5e6);
            // The rest is below the pending share and waits for the 10-minute interval: SIGTERM flushes it.
            app.await("every record consumed", Duration.ofMinutes(3),
                    () -> app.metric("millpond_records_consumed_total").orElse(0) >= EVENTS);
            assertThat(app.stop(Duration.ofSeconds(60))).isZero();
            String text = app.logText();
            assertThat(text).contains("Memory budget: limit 640 MiB (MILLPOND_MEMORY_LIMIT)")
                    .containsPattern("Arrow \\d+ \\(flush at 1\\d pending, two flushes alive\\)")
                    .contains("DuckDB 128MiB");
        }
        try (var c = setup.lake().openQueryConnection(); var s = c.createStatement();
             var r = s.executeQuery("SELECT count(*), count(DISTINCT uuid) FROM lake.main.events")) {
            r.next();
            assertThat(r.getLong(1)).isEqualTo(EVENTS);
            assertThat(r.getLong(2)).isEqualTo(EVENTS);
        }
    }
}
