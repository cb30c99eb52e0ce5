package dev.millpond.maintenance.metrics;

import dev.millpond.maintenance.MaintenanceSettings;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.DuckDbExtensions;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

@ServiceBacked
class CatalogMetricsCollectorTest {

    @Test
    void tenConsecutiveFailuresForceAReconnect() throws Exception {
        DuckLakeStack lake = Services.newDuckLake();
        Map<String, String> env = new HashMap<>(lake.environment());
        env.put("MILLPOND_DUCKDB_EXTENSION_DIR", DuckDbExtensions.directory().toAbsolutePath().toString());
        List<CatalogQuery> queries = new ArrayList<>();
        for (int i = 0; i < CatalogMetricsCollector.FAILURES_BEFORE_RECONNECT; i++) {
            // Fails until the test creates the table: ten failures in a row, then, after the reconnect, successes.
            queries.add(new CatalogQuery("later" + i, "SELECT count(*) AS n FROM lake.main.appears_later",
                    Duration.ofMillis(1), List.of()));
        }
        CatalogMetricsState state = new CatalogMetricsState("t");
        try (CatalogMetricsCollector collector = new CatalogMetricsCollector(MaintenanceSettings.fromEnvironment(env),
                Optional.of("256MB"), queries, state)) {
            collector.tick(); // connects, runs the ten failing queries, disconnects
            String after = state.exposition();
            assertThat(AppProcess.metricIn(after, "ducklake_metrics_up").orElseThrow()).isZero();
            assertThat(AppProcess.metricIn(after, "ducklake_metrics_query_errors_total").orElseThrow()).isEqualTo(10);
            try (var c = lake.openQueryConnection()) {
                dev.millpond.testsupport.DuckDbSql.execute(c, "CREATE TABLE lake.main.appears_later (id INTEGER)");
            }
            // Ticks until one comes after the 1 s backoff and reconnects.
            Await.within(Duration.ofSeconds(30), "a tick that reconnects").pollDelay(Duration.ofMillis(200))
                    .pollInterval(Duration.ofMillis(200)).until(() -> {
                        collector.tick();
                        return AppProcess.metricIn(state.exposition(), "ducklake_metrics_up").orElseThrow() != 0;
                    });
            assertThat(AppProcess.metricIn(state.exposition(), "ducklake_metrics_up").orElseThrow()).isEqualTo(1);
            assertThat(AppProcess.metricIn(state.exposition(), "ducklake_later3_n").orElseThrow()).isZero();
        }
    }
}
