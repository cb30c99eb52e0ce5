package dev.millpond.observability;

import dev.millpond.testsupport.MetricsText;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MillpondMetricsTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final MillpondMetrics metrics = new MillpondMetrics(registry, "t-events", "");

    @Test
    void unlabelledSeriesExistFromTheFirstScrapeWithPipelineAndBrokerSource() {
        String scrape = registry.scrape();
        assertThat(MetricsText.metric(scrape, "millpond_records_written_total", "pipeline", "t-events",
                "broker_source", "")).hasValue(0.0);
        for (String name : new String[]{"millpond_pending_bytes", "millpond_buffer_fullness",
                "millpond_consume_batch_size_current", "millpond_schema_columns_added_total",
                "millpond_schema_columns_widened_total", "millpond_flush_duration_seconds_count",
                "millpond_flush_size_bytes_count", "millpond_flush_size_records_count",
                "millpond_arrow_conversion_seconds_count"}) {
            assertThat(MetricsText.metric(scrape, name, "pipeline", "t-events")).as(name).isPresent();
        }
        // Labelled series appear only after first use, as in the original.
        assertThat(MetricsText.metric(scrape, "millpond_records_consumed_total")).isEmpty();
        assertThat(MetricsText.metric(scrape, "millpond_errors_total")).isEmpty();
    }

    @Test
    void labelledCountersAndGaugesCarryTheOriginalLabelNamesAndValues() {
        metrics.recordsConsumed(3, 5);
        metrics.recordsConsumed(3, 2);
        metrics.recordsSkipped(SkipReason.JSON_PARSE, 4);
        metrics.recordsSkipped(SkipReason.FILTER_EXCLUDED, 0);
        metrics.error(ErrorType.DUCKLAKE_COMMIT_CONTENTION);
        metrics.batchFlushed(FlushTrigger.SIZE);
        metrics.consumerLag(3, 42);
        metrics.lastCommittedOffset(3, 1001);
        String scrape = registry.scrape();
        assertThat(MetricsText.metric(scrape, "millpond_records_consumed_total", "partition", "3")).hasValue(7.0);
        assertThat(MetricsText.metric(scrape, "millpond_records_skipped_total", "reason", "json_parse")).hasValue(4.0);
        assertThat(MetricsText.metric(scrape, "millpond_records_skipped_total", "reason", "filter_excluded")).isEmpty();
        assertThat(MetricsText.metric(scrape, "millpond_errors_total", "type", "ducklake_commit_contention"))
                .hasValue(1.0);
        assertThat(MetricsText.metric(scrape, "millpond_batches_flushed_total", "trigger", "size")).hasValue(1.0);
        assertThat(MetricsText.metric(scrape, "millpond_consumer_lag", "partition", "3")).hasValue(42.0);
        assertThat(MetricsText.metric(scrape, "millpond_last_committed_offset", "partition", "3", "pipeline",
                "t-events")).hasValue(1001.0);
    }

    @Test
    void hoglakeSeriesCarryTheOriginalNamesAndOnlyExistOnceTheSinkUsesThem() {
        assertThat(MetricsText.metric(registry.scrape(), "millpond_hoglake_files_written_total")).isEmpty();
        metrics.hoglakeFilesWritten(0);
        metrics.hoglakeOrphanedFiles(0);
        metrics.hoglakeFilesWritten(3);
        metrics.hoglakeOrphanedFiles(2);
        metrics.hoglakeCommitReplay("replayed");
        metrics.hoglakeCommitReplay("already_published");
        metrics.hoglakeCommitReplay("already_published");
        metrics.error(ErrorType.HOGLAKE_COMMIT_CONTENTION);
        String scrape = registry.scrape();
        assertThat(MetricsText.metric(scrape, "millpond_hoglake_files_written_total", "pipeline", "t-events",
                "broker_source", "")).hasValue(3.0);
        assertThat(MetricsText.metric(scrape, "millpond_hoglake_orphaned_files_total")).hasValue(2.0);
        assertThat(MetricsText.metric(scrape, "millpond_hoglake_commit_replays_total", "outcome", "replayed"))
                .hasValue(1.0);
        assertThat(MetricsText.metric(scrape, "millpond_hoglake_commit_replays_total", "outcome",
                "already_published")).hasValue(2.0);
        assertThat(MetricsText.metric(scrape, "millpond_errors_total", "type", "hoglake_commit_contention"))
                .hasValue(1.0);
    }

    @Test
    void histogramsUseTheOriginalBuckets() {
        metrics.flushSize(7_000_000, 20_000);
        metrics.flushDuration(0.3);
        String scrape = registry.scrape();
        assertThat(MetricsText.metric(scrape, "millpond_flush_size_bytes_bucket", "le", "1000000.0")).hasValue(0.0);
        assertThat(MetricsText.metric(scrape, "millpond_flush_size_bytes_bucket", "le", "1.0E7")).hasValue(1.0);
        assertThat(MetricsText.metric(scrape, "millpond_flush_size_records_bucket", "le", "50000.0")).hasValue(1.0);
        assertThat(MetricsText.metric(scrape, "millpond_flush_size_records_bucket", "le", "10000.0")).hasValue(0.0);
        assertThat(MetricsText.metric(scrape, "millpond_flush_duration_seconds_bucket", "le", "0.25")).hasValue(0.0);
        assertThat(MetricsText.metric(scrape, "millpond_flush_duration_seconds_bucket", "le", "0.5")).hasValue(1.0);
        assertThat(MetricsText.metric(scrape, "millpond_flush_duration_seconds_sum").orElseThrow()).isCloseTo(0.3,
                org.assertj.core.api.Assertions.within(1e-9));
    }
}
