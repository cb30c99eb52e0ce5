package dev.millpond.maintenance;

import dev.millpond.config.PushgatewayUrl;
import org.jboss.logging.Logger;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The timing series a maintenance run pushes to a Prometheus Pushgateway when PUSHGATEWAY_URL is set:
 * {@code maintenance_start_time{operation}} when it starts, and {@code maintenance_duration_seconds{operation,status}}
 * (plus {@code maintenance_compact_tables_failed{tier}} after a compaction) when it ends, under job
 * {@code ducklake-maintenance}. A failed push is logged and never fails the run. Hand-written text exposition over the
 * JDK HTTP client: three gauges do not justify a second Prometheus client beside Micrometer.
 */
public final class PushgatewayTiming {

    public static final String JOB = "ducklake-maintenance";
    private static final Logger LOG = Logger.getLogger(PushgatewayTiming.class);

    private final Optional<URI> target;
    private final String operation;
    private final double startSeconds;
    private final long startNanos;

    private PushgatewayTiming(Optional<URI> target, String operation) {
        this.target = target;
        this.operation = operation;
        this.startSeconds = System.currentTimeMillis() / 1000.0;
        this.startNanos = System.nanoTime();
    }

    public static PushgatewayTiming start(String operation, Map<String, String> env) {
        Optional<URI> target = PushgatewayUrl.fromEnvironment(env)
                .map(base -> URI.create(base + "/metrics/job/" + JOB));
        PushgatewayTiming timing = new PushgatewayTiming(target, operation);
        timing.push(timing.startSeries());
        return timing;
    }

    /** Pushes the end of the run; {@code compaction} adds the failed-tables gauge. */
    public void finish(boolean success, Optional<Compaction.Result> compaction) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        StringBuilder body = new StringBuilder(startSeries());
        body.append("# TYPE maintenance_duration_seconds gauge\n")
                .append("maintenance_duration_seconds{operation=\"").append(operation).append("\",status=\"")
                .append(success ? "success" : "error").append("\"} ").append(format(seconds)).append('\n');
        compaction.ifPresent(c -> body.append("# TYPE maintenance_compact_tables_failed gauge\n")
                .append("maintenance_compact_tables_failed{tier=\"").append(c.tier()).append("\"} ")
                .append(c.tablesFailed()).append('\n'));
        push(body.toString());
        LOG.infof("Operation %s finished: status=%s duration=%.1fs", operation, success ? "success" : "error", seconds);
    }

    private String startSeries() {
        return "# TYPE maintenance_start_time gauge\nmaintenance_start_time{operation=\"" + operation + "\"} "
                + format(startSeconds) + "\n";
    }

    private static String format(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private void push(String exposition) {
        if (target.isEmpty()) {
            return;
        }
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(target.get())
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "text/plain; version=0.0.4")
                    .PUT(HttpRequest.BodyPublishers.ofString(exposition)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                LOG.warnf("Pushing maintenance metrics to %s failed: HTTP %d %s", target.get(), response.statusCode(),
                        response.body());
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.warnf("Pushing maintenance metrics to %s failed: %s", target.get(), e.toString());
        }
    }
}
