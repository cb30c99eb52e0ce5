package dev.millpond.observability;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** The probes and /metrics as Kubernetes and Prometheus see them, served by Quarkus. */
@QuarkusTest
class ProbeResourceTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TestHTTPResource("/")
    URI root;

    @Inject
    PumpHealth health;

    @Test
    void livenessIsUpFromStartButReadinessWaitsForTheSinkAndTheAssignment() throws Exception {
        HttpResponse<String> live = get("healthz");
        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.body()).matches("ok poll=\\d+\\.\\ds ago flush=never\\n");
        assertThat(live.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));

        HttpResponse<String> notReady = get("readyz");
        assertThat(notReady.statusCode()).isEqualTo(503);
        assertThat(notReady.body()).startsWith("not ready poll=");

        health.sinkReady();
        assertThat(get("readyz").statusCode()).isEqualTo(503);
        health.partitionsAssigned();
        health.flushed();
        HttpResponse<String> ready = get("readyz");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).matches("ok poll=\\d+\\.\\ds ago flush=\\d+\\.\\ds ago\\n");
        assertThat(get("q/health/ready").body()).contains("pump-ready", "UP");
    }

    @Test
    void metricsAreServedAtTheRootPath() throws Exception {
        HttpResponse<String> metrics = get("metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("jvm_memory_used_bytes");
        assertThat(get("nothing-here").statusCode()).isEqualTo(404);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(root.resolve(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
