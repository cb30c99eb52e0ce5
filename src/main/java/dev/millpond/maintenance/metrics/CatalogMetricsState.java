package dev.millpond.maintenance.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the exporter knows: the last successful result of each query and its self metrics, rendered as Prometheus
 * text. Written by the one collector thread, read by HTTP threads and the push; every method is synchronized.
 * Hand-written exposition: the series are whatever the queries return (their names and label sets are data), which a
 * registry of pre-declared meters does not model.
 */
public final class CatalogMetricsState {

    /** One series. */
    public record Sample(String metric, Map<String, String> labels, double value) {
    }

    private final String tenant;
    private final Map<String, List<Sample>> results = new LinkedHashMap<>();
    private final Map<String, Double> durations = new TreeMap<>();
    private final Map<String, Double> lastSuccess = new TreeMap<>();
    private final Map<String, Long> errors = new TreeMap<>();
    private final Map<String, Long> livenessFailures = new ConcurrentHashMap<>(Map.of("in_flight", 0L, "stale_tick", 0L));
    private boolean up;

    public CatalogMetricsState(String tenant) {
        this.tenant = tenant;
    }

    public synchronized void up(boolean connected) {
        up = connected;
    }

    public synchronized void success(String query, List<Sample> samples, double seconds, double epochSeconds) {
        results.put(query, List.copyOf(samples));
        durations.put(query, seconds);
        lastSuccess.put(query, epochSeconds);
        errors.putIfAbsent(query, 0L);
    }

    public synchronized void failure(String query, double seconds) {
        durations.put(query, seconds);
        errors.merge(query, 1L, Long::sum);
    }

    public void livenessFailure(String reason) {
        livenessFailures.merge(reason, 1L, Long::sum);
    }

    public synchronized String exposition() {
        StringBuilder out = new StringBuilder();
        Map<String, List<Sample>> byMetric = new TreeMap<>();
        results.values().forEach(list -> list.forEach(s -> byMetric.computeIfAbsent(s.metric(), k -> new ArrayList<>())
                .add(s)));
        byMetric.forEach((metric, samples) -> {
            out.append("# TYPE ").append(metric).append(" gauge\n");
            samples.forEach(s -> line(out, metric, s.labels(), s.value()));
        });
        out.append("# TYPE ducklake_metrics_up gauge\n");
        line(out, "ducklake_metrics_up", Map.of(), up ? 1 : 0);
        out.append("# TYPE ducklake_metrics_query_duration_seconds gauge\n");
        durations.forEach((q, v) -> line(out, "ducklake_metrics_query_duration_seconds", Map.of("query", q), v));
        out.append("# TYPE ducklake_metrics_query_last_success_timestamp gauge\n");
        lastSuccess.forEach((q, v) -> line(out, "ducklake_metrics_query_last_success_timestamp", Map.of("query", q), v));
        out.append("# TYPE ducklake_metrics_query_errors_total counter\n");
        errors.forEach((q, v) -> line(out, "ducklake_metrics_query_errors_total", Map.of("query", q), v));
        out.append("# TYPE ducklake_metrics_liveness_failures_total counter\n");
        new TreeMap<>(livenessFailures).forEach((r, v) ->
                line(out, "ducklake_metrics_liveness_failures_total", Map.of("reason", r), v));
        return out.toString();
    }

    private void line(StringBuilder out, String metric, Map<String, String> labels, double value) {
        out.append(metric).append("{tenant=\"").append(escape(tenant)).append('"');
        new TreeMap<>(labels).forEach((k, v) -> out.append(',').append(k).append("=\"").append(escape(v)).append('"'));
        out.append("} ").append(format(value)).append('\n');
    }

    private static String format(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%s", v);
    }

    private static String escape(String v) {
        return v == null ? "" : v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
