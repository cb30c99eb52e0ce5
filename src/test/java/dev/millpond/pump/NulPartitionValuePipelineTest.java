package dev.millpond.pump;

import dev.millpond.app.Pipeline;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.LakeTopic;
import dev.millpond.testsupport.ServiceBacked;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A record whose value of a partition key holds U+0000 ({@code "event":"x\u0000y"} with DUCKLAKE_PARTITION_BY=event),
 * on the real stack. DuckLake cannot record such a partition value: a flush written as a parquet file fails its
 * commit every time (a crash loop), one inlined in the catalog lands but then fails DuckLake's move of the inlined rows
 * into a file. One rule for both: the record is kept whole in the rejects table with its reason, the rest of the
 * flush lands, the offsets move on, and the catalog's inlined rows can still be flushed.
 */
@ServiceBacked
class NulPartitionValuePipelineTest {

    private static final String NUL_EVENT = "{\"id\":%d,\"event\":\"x\\u0000y\"}";

    @Test
    void aNulInAPartitionValueIsKeptAsARejectInInlinedAndParquetFlushesAlike() throws Exception {
        LakeTopic setup = LakeTopic.create("nulpart", 1);
        Map<String, String> env = setup.environment("FLUSH_INTERVAL_MS", "600000", "DUCKLAKE_PARTITION_BY", "event");

        // An inlined flush (3 records, under DuckLake's 10-row inlining limit), then a parquet one (20 records).
        List<byte[]> inlined = records(0, 3, 1);
        List<byte[]> parquet = records(3, 23, 10);
        long rejectedInlined = flushOnce(setup, env, inlined);
        long rejectedParquet = flushOnce(setup, env, parquet);

        assertThat(rejectedInlined + rejectedParquet).as("records_skipped_total{nul_in_partition_value}").isEqualTo(2);
        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement()) {
            assertThat(longs(s, "SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE contains(event, chr(0)))"
                    + " FROM lake.main.events")).containsExactly(21L, 21L, 0L);
            List<String> rejects = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT kafka_offset, reason, value FROM lake.main._millpond_rejects"
                    + " ORDER BY kafka_offset")) {
                while (rs.next()) {
                    rejects.add(rs.getLong(1) + "|" + rs.getString(2) + "|"
                            + new String(rs.getBytes(3), StandardCharsets.UTF_8));
                }
            }
            assertThat(rejects).as("the records, whole, with their reason").containsExactly(
                    "1|nul_in_partition_value|" + NUL_EVENT.formatted(1),
                    "10|nul_in_partition_value|" + NUL_EVENT.formatted(10));
            s.execute("CALL ducklake_flush_inlined_data('lake')");
        }
        assertThat(setup.committedOffsets("millpond-" + setup.topic() + "-events")).isEqualTo(setup.endOffsets());
    }

    /** One pipeline run whose shutdown flush writes {@code values}; returns the NUL skips it counted. */
    private static long flushOnce(LakeTopic setup, Map<String, String> env, List<byte[]> values) throws Exception {
        setup.produce(0, values);
        MillpondConfig config = ConfigLoader.load(env);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        MillpondMetrics metrics = new MillpondMetrics(registry, config.pipelineLabel(), "");
        try (Pipeline pipeline = Pipeline.open(config, metrics, new PumpHealth(),
                AppProcess.extensionDirectory().toString(), UnaryOperator.identity(), s -> { })) {
            RunningPump.runUntil(pipeline, () -> AppProcess.metricIn(registry.scrape(),
                    "millpond_records_consumed_total").orElse(0) >= values.size(), Duration.ofSeconds(60));
        }
        return (long) AppProcess.metricIn(registry.scrape(), "millpond_records_skipped_total", "reason",
                "nul_in_partition_value").orElse(0);
    }

    /** Ids [from, to) with events a/b, and a NUL in the event of id {@code nulId}. */
    private static List<byte[]> records(int from, int to, int nulId) {
        List<byte[]> out = new ArrayList<>();
        for (int id = from; id < to; id++) {
            String json = id == nulId ? NUL_EVENT.formatted(id)
                    : "{\"id\":" + id + ",\"event\":\"" + (id % 2 == 0 ? "a" : "b") + "\"}";
            out.add(json.getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    private static List<Long> longs(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            List<Long> out = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                out.add(rs.getLong(i));
            }
            return out;
        }
    }
}
