package dev.millpond.pump;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.millpond.app.Pipeline;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.LakeTopic;
import dev.millpond.testsupport.ServiceBacked;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every record-handling stage at once, on the real stack: uuid and timestamptz pins, a keep filter, a drop filter and
 * a two-key sort, checked in the DuckLake table and in the row order of the parquet file it wrote.
 */
@ServiceBacked
class RecordHandlingPipelineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void pinsFiltersAndSortLandNativeTypesOnlyKeptRowsInKeyOrder() throws Exception {
        LakeTopic setup = LakeTopic.create("stages", 2);
        int perPartition = 1_000;
        setup.produce(0, SampleEvents.events(0, perPartition));
        setup.produce(1, SampleEvents.events(perPartition, perPartition));

        long kept = 0;
        long excluded = 0;
        long dropped = 0;
        for (long id = 0; id < 2L * perPartition; id++) {
            JsonNode e = JSON.readTree(SampleEvents.event(id));
            if (!Set.of(1L, 2L, 3L).contains(e.get("team_id").asLong())) {
                excluded++;
            } else if (e.get("event").asText().equals("signup")) {
                dropped++;
            } else {
                kept++;
            }
        }

        Map<String, String> env = setup.environment("FLUSH_INTERVAL_MS", "600000");
        env.put("MILLPOND_TYPED_COLUMNS", "uuid:uuid,timestamp:timestamptz");
        env.put("MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id");
        env.put("MILLPOND_FILTER_VALUES", "1,2,3");
        env.put("MILLPOND_FILTER_DROP_FIELD_NAME", "event");
        env.put("MILLPOND_FILTER_DROP_VALUES", "signup");
        env.put("MILLPOND_SORT_BY", "team_id,timestamp");
        MillpondConfig config = ConfigLoader.load(env);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        MillpondMetrics metrics = new MillpondMetrics(registry, config.pipelineLabel(), "");
        try (Pipeline pipeline = Pipeline.open(config, metrics, new PumpHealth(),
                AppProcess.extensionDirectory().toString(), UnaryOperator.identity(), s -> { })) {
            Thread pump = new Thread(pipeline.pump()::run);
            pump.start();
            Await.within(Duration.ofSeconds(120), "every record consumed").pollInterval(Duration.ofMillis(50))
                    .until(() -> AppProcess.metricIn(registry.scrape(), "millpond_records_consumed_total").orElse(0)
                            >= 2 * perPartition);
            pipeline.pump().requestStop(); // one flush, at shutdown: one sorted file
            pump.join(60_000);
        }
        String scrape = registry.scrape();
        assertThat(AppProcess.metricIn(scrape, "millpond_records_written_total").orElseThrow()).isEqualTo(kept);
        assertThat(AppProcess.metricIn(scrape, "millpond_records_skipped_total", "reason", "filter_excluded")
                .orElseThrow()).isEqualTo(excluded);
        assertThat(AppProcess.metricIn(scrape, "millpond_records_skipped_total", "reason", "filter_dropped")
                .orElseThrow()).isEqualTo(dropped);
        assertThat(AppProcess.metricIn(scrape, "millpond_columns_coerced_total", "target_type", "uuid")).isPresent();
        assertThat(AppProcess.metricIn(scrape, "millpond_columns_coerced_total", "target_type", "timestamptz"))
                .isPresent();
        assertThat(AppProcess.metricIn(scrape, "millpond_errors_total", "type", "column_coercion")).isEmpty();
        // The catalogue an existing dashboard reads, each with the pipeline and broker_source labels.
        for (String name : List.of("millpond_records_consumed_total", "millpond_records_written_total",
                "millpond_batches_flushed_total", "millpond_records_skipped_total", "millpond_filter_matched_total",
                "millpond_flush_duration_seconds_bucket", "millpond_arrow_conversion_seconds_bucket",
                "millpond_flush_size_bytes_bucket", "millpond_flush_size_records_bucket", "millpond_pending_bytes",
                "millpond_buffer_fullness", "millpond_consume_batch_size_current", "millpond_consumer_lag",
                "millpond_last_committed_offset", "millpond_schema_columns_added_total",
                "millpond_schema_columns_widened_total", "millpond_columns_coerced_total")) {
            assertThat(AppProcess.metricIn(scrape, name, "pipeline", setup.topic() + "-events", "broker_source", ""))
                    .as(name).isPresent();
        }
        assertThat(AppProcess.metricIn(scrape, "millpond_filter_matched_total", "value", "2").orElseThrow())
                .isPositive();

        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement()) {
            Map<String, String> types = new HashMap<>();
            try (ResultSet rs = s.executeQuery("SELECT column_name, data_type FROM information_schema.columns "
                    + "WHERE table_catalog = 'lake' AND table_name = 'events'")) {
                while (rs.next()) {
                    types.put(rs.getString(1), rs.getString(2));
                }
            }
            assertThat(types).containsEntry("uuid", "UUID").containsEntry("timestamp", "TIMESTAMP WITH TIME ZONE");
            try (ResultSet rs = s.executeQuery("SELECT count(*), count(*) FILTER (WHERE team_id NOT IN (1, 2, 3)), "
                    + "count(*) FILTER (WHERE event = 'signup') FROM lake.main.events")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(kept);
                assertThat(rs.getLong(2)).isZero();
                assertThat(rs.getLong(3)).isZero();
            }
            JsonNode sample = JSON.readTree(SampleEvents.event(firstKeptId(perPartition)));
            try (ResultSet rs = s.executeQuery("SELECT uuid::VARCHAR, strftime(timestamp AT TIME ZONE 'UTC', "
                    + "'%Y-%m-%d %H:%M:%S.%g') FROM lake.main.events WHERE id = " + sample.get("id").asLong())) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo(sample.get("uuid").asText());
                assertThat(rs.getString(2)).isEqualTo(sample.get("timestamp").asText());
            }
            List<String> files = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT data_file FROM ducklake_list_files('lake', 'events')")) {
                while (rs.next()) {
                    files.add(rs.getString(1));
                }
            }
            assertThat(files).hasSize(1);
            List<String> keys = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT team_id, timestamp FROM read_parquet('" + files.get(0) + "')")) {
                while (rs.next()) {
                    keys.add(rs.getLong(1) + "|" + rs.getString(2));
                }
            }
            assertThat(keys).hasSize((int) kept);
            List<String> sortedKeys = new ArrayList<>(keys);
            sortedKeys.sort(null);
            assertThat(keys).as("rows in the parquet file are in (team_id, timestamp) order").isEqualTo(sortedKeys);
        }
    }

    private static long firstKeptId(int perPartition) throws Exception {
        for (long id = 0; id < 2L * perPartition; id++) {
            JsonNode e = JSON.readTree(SampleEvents.event(id));
            if (Set.of(1L, 2L, 3L).contains(e.get("team_id").asLong()) && !e.get("event").asText().equals("signup")) {
                return id;
            }
        }
        throw new AssertionError("no kept event");
    }
}
