package dev.millpond.maintenance;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

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

    @Test
    void withoutAUrlOrWithADeadGatewayTheRunGoesOn() {
        PushgatewayTiming.start("expire", Map.of()).finish(true, Optional.empty());
        PushgatewayTiming.start("expire", Map.of("PUSHGATEWAY_URL", "http://127.0.0.1:1")).finish(true,
                Optional.empty());
    }
}
