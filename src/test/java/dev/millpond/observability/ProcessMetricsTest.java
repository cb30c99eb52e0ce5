package dev.millpond.observability;

import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import dev.millpond.testsupport.MetricsText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The process collector's names and units, read from a /proc/self laid out as Linux lays it out. */
class ProcessMetricsTest {

    @Test
    void readsRssVirtualSizeAndFileDescriptorsFromProc(@TempDir Path proc) throws IOException {
        Files.writeString(proc.resolve("status"), "Name:\tjava\nVmPeak:\t 9000000 kB\nVmSize:\t 8388608 kB\n"
                + "VmRSS:\t  524288 kB\nThreads:\t42\n");
        Files.writeString(proc.resolve("limits"), "Limit                     Soft Limit           Hard Limit           Units\n"
                + "Max cpu time              unlimited            unlimited            seconds\n"
                + "Max open files            1048576              1048576              files\n");
        Files.createDirectories(proc.resolve("fd"));
        for (int i = 0; i < 7; i++) {
            Files.createFile(proc.resolve("fd").resolve(Integer.toString(i)));
        }
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new ProcessMetrics(proc).bindTo(registry);
        String scrape = registry.scrape();

        assertThat(MetricsText.metric(scrape, "process_resident_memory_bytes")).hasValue(512.0 * 1024 * 1024);
        assertThat(MetricsText.metric(scrape, "process_virtual_memory_bytes")).hasValue(8.0 * 1024 * 1024 * 1024);
        assertThat(MetricsText.metric(scrape, "process_open_fds")).hasValue(7.0);
        assertThat(MetricsText.metric(scrape, "process_max_fds")).hasValue(1048576.0);
        assertThat(MetricsText.metric(scrape, "process_cpu_seconds_total").orElseThrow()).isPositive();
        assertThat(MetricsText.metric(scrape, "process_start_time_seconds").orElseThrow())
                .isBetween(1.7e9, System.currentTimeMillis() / 1000.0);
        assertThat(scrape).contains("# TYPE process_cpu_seconds_total counter");
    }

    @Test
    void withoutProcNothingIsRegistered(@TempDir Path empty) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new ProcessMetrics(empty.resolve("missing")).bindTo(registry);
        assertThat(registry.getMeters()).isEmpty();
    }
}
