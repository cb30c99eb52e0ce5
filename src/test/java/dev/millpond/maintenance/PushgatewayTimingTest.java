package dev.millpond.maintenance;

import com.sun.net.httpserver.HttpServer;
import dev.millpond.testsupport.CapturedLog;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/** The timing series a run pushes: start time when it starts, duration and status (and failed tables) at the end. */
class PushgatewayTimingTest {

    @Test
    void pushesStartThenDurationUnderTheJob() throws Exception {
        List<String> bodies = new CopyOnWriteArrayList<>();
        List<String> paths = new CopyOnWriteArrayList<>();
        HttpServer gateway = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        gateway.createContext("/", x -> {
            paths.add(x.getRequestMethod() + " " + x.getRequestURI().getPath());
            bodies.add(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        gateway.start();
        try {
            Map<String, String> env = Map.of("PUSHGATEWAY_URL", "127.0.0.1:" + gateway.getAddress().getPort());
            PushgatewayTiming timing = PushgatewayTiming.start("compact", env);
            timing.finish(true, Optional.of(new Compaction.Result(2, 10, 3, 1, 9, 2)));
            PushgatewayTiming.start("expire", env).finish(false, Optional.empty());
        } finally {
            gateway.stop(0);
        }
        assertThat(paths).containsOnly("PUT /metrics/job/ducklake-maintenance").hasSize(4);
        assertThat(bodies.get(0)).matches("(?s).*maintenance_start_time\\{operation=\"compact\"} \\d+\\.\\d{3}\n");
        assertThat(bodies.get(1)).contains("maintenance_duration_seconds{operation=\"compact\",status=\"success\"} ",
                "maintenance_compact_tables_failed{tier=\"2\"} 1");
        assertThat(bodies.get(3)).contains("maintenance_duration_seconds{operation=\"expire\",status=\"error\"} ");
    }

    /**
     * A gateway that answers 503, or none listening, costs the run a warning and at most the timeouts, never a failure.
     */
    @Test
    void aFailingOrDeadGatewayNeverFailsTheRun() throws Exception {
        List<String> paths = new CopyOnWriteArrayList<>();
        HttpServer gateway = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        gateway.createContext("/", x -> {
            paths.add(x.getRequestMethod() + " " + x.getRequestURI().getPath());
            x.getRequestBody().readAllBytes();
            x.sendResponseHeaders(503, -1);
            x.close();
        });
        gateway.start();
        int port = gateway.getAddress().getPort();
        try {
            assertThatCode(() -> PushgatewayTiming.start("expire", Map.of("PUSHGATEWAY_URL", "http://127.0.0.1:" + port))
                    .finish(true, Optional.empty())).doesNotThrowAnyException();
        } finally {
            gateway.stop(0);
        }
        assertThat(paths).as("both pushes were tried").containsExactly("PUT /metrics/job/ducklake-maintenance",
                "PUT /metrics/job/ducklake-maintenance");

        // The same port, now closed: the connection is refused, so each push fails at once rather than after its
        // timeouts (a timeout would be an HttpConnectTimeoutException or HttpTimeoutException, not this).
        try (CapturedLog log = CapturedLog.of(PushgatewayTiming.class)) {
            assertThatCode(() -> PushgatewayTiming.start("expire", Map.of("PUSHGATEWAY_URL", "127.0.0.1:" + port))
                    .finish(false, Optional.empty())).doesNotThrowAnyException();
            assertThat(log.warnings()).hasSize(2).allSatisfy(warning -> assertThat(warning)
                    .startsWith("Pushing maintenance metrics to http://127.0.0.1:" + port)
                    .contains("failed: java.net.ConnectException"));
        }
        assertThat(paths).hasSize(2);
    }
}
