package dev.millpond.app;

import com.sun.net.httpserver.HttpServer;
import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.LakeTopic;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A served allowlist as large as the poller accepts (a 32 MiB body), in the pod's own heap: the image's JVM flags
 * with the 206 MiB heap that {@code -XX:MaxRAMPercentage=20} gives a 1 GiB pod. Authoritative mode blocks startup on
 * the first poll, so a list the pod cannot hold would crash-loop every pod.
 */
class LargeIncludeValuesIT {

    private static final Path LOGS = Path.of("target", "e2e-logs");
    /** The image's JAVA_OPTS, with the heap MaxRAMPercentage=20 gives a 1 GiB pod. */
    private static final List<String> POD_JVM = List.of("-Xmx206m", "-XX:+UseSerialGC",
            "-Djdk.nio.maxCachedBufferSize=16777216", "-XX:+ExitOnOutOfMemoryError");
    private static final int BODY_BYTES = 32 * 1024 * 1024;
    private static final Pattern TEAM = Pattern.compile("\"team_id\":(\\d+)");

    /**
     * 1.6 million 19-digit ids (the body just under 32 MiB) plus teams 2 and 3, over the static pin 1: the pod starts
     * and keeps exactly the events of teams 1–3. Before, the body became a Jackson tree of big integers and then
     * boxed sets, several times the heap: the pod ran out of memory at startup, every time.
     */
    @Test
    void aThirtyTwoMebibyteAllowlistStartsThePodAndFilters() throws Exception {
        ByteArrayOutputStream body = new ByteArrayOutputStream(BODY_BYTES);
        body.writeBytes("[2, 3".getBytes(StandardCharsets.US_ASCII));
        long served = 2;
        for (long id = 1_000_000_000_000_000_000L; body.size() < BODY_BYTES - 64; id += 7) {
            body.writeBytes((", " + id).getBytes(StandardCharsets.US_ASCII));
            served++;
        }
        body.write(']');
        assertThat(body.size()).isLessThanOrEqualTo(BODY_BYTES);

        LakeTopic setup = LakeTopic.create("incl-large", 2);
        long kept = 0;
        for (int p = 0; p < 2; p++) {
            List<byte[]> events = SampleEvents.events(p * 1_000L, 1_000);
            setup.produce(p, events);
            for (byte[] e : events) {
                Matcher m = TEAM.matcher(new String(e, StandardCharsets.UTF_8));
                assertThat(m.find()).isTrue();
                kept += Integer.parseInt(m.group(1)) <= 3 ? 1 : 0;
            }
        }
        HttpServer endpoint = serve(body.toByteArray());
        try {
            Map<String, String> env = setup.environment("FLUSH_INTERVAL_MS", "1000",
                    "MILLPOND_MEMORY_LIMIT", "1Gi",
                    "MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id",
                    "MILLPOND_FILTER_VALUES", "1",
                    "MILLPOND_INCLUDE_VALUES_URL", "http://127.0.0.1:" + endpoint.getAddress().getPort() + "/teams",
                    "MILLPOND_INCLUDE_VALUES_MODE", "authoritative",
                    "MILLPOND_INCLUDE_VALUES_REQUEST_TIMEOUT_S", "60",
                    "MILLPOND_INCLUDE_VALUES_STARTUP_TIMEOUT_S", "120");
            try (AppProcess app = AppProcess.start(env, LOGS.resolve(setup.topic() + ".log"), POD_JVM)) {
                Map<Integer, Long> end = setup.endOffsets();
                app.await("every partition committed to its end", Duration.ofMinutes(4), () -> {
                    if (!app.isAlive()) {
                        throw new AssertionError("the app exited on its own\n" + app.logTail());
                    }
                    return setup.committedOffsets("millpond-" + setup.topic() + "-events").equals(end);
                });
                assertThat(app.metric("millpond_include_values_size")).hasValue((double) served + 1);
                assertThat(app.logText()).containsPattern("include values up to 2[45] MiB");
                long peak = app.peakRssBytes();
                System.out.printf("[include-values] %d values served in a %d-byte body, peak RSS %d MB%n", served,
                        body.size(), peak >> 20);
                assertThat(app.stop(Duration.ofSeconds(60))).isZero();
            }
            try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*), count(*) FILTER (WHERE team_id > 3)"
                         + " FROM lake.main.events")) {
                rs.next();
                assertThat(rs.getLong(1)).as("events of teams 1-3").isEqualTo(kept);
                assertThat(rs.getLong(2)).as("events of other teams").isZero();
            }
        } finally {
            endpoint.stop(0);
        }
    }

    /**
     * A list of more distinct values than the allowlist's share of the heap holds (3.9 million integers, 31 MiB of
     * longs against 25 MiB): every poll is refused with a line naming the limit, and an authoritative pod gives up
     * after MILLPOND_INCLUDE_VALUES_STARTUP_TIMEOUT_S with one line, as for an endpoint that is down — it never runs
     * out of memory.
     */
    @Test
    void aListPastTheHeapShareIsRefusedWithOneLineNotAnOutOfMemoryError() throws Exception {
        ByteArrayOutputStream body = new ByteArrayOutputStream(BODY_BYTES);
        body.write('[');
        for (long v = 0; v < 3_900_000; v++) {
            body.writeBytes(((v == 0 ? "" : ",") + v).getBytes(StandardCharsets.US_ASCII));
        }
        body.write(']');
        assertThat(body.size()).isLessThanOrEqualTo(BODY_BYTES);
        LakeTopic setup = LakeTopic.create("incl-over", 1);
        HttpServer endpoint = serve(body.toByteArray());
        try {
            Map<String, String> env = setup.environment("MILLPOND_MEMORY_LIMIT", "1Gi",
                    "MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id",
                    "MILLPOND_FILTER_VALUES", "1",
                    "MILLPOND_INCLUDE_VALUES_URL", "http://127.0.0.1:" + endpoint.getAddress().getPort() + "/teams",
                    "MILLPOND_INCLUDE_VALUES_MODE", "authoritative",
                    "MILLPOND_INCLUDE_VALUES_REQUEST_TIMEOUT_S", "60",
                    "MILLPOND_INCLUDE_VALUES_STARTUP_TIMEOUT_S", "20");
            try (AppProcess app = AppProcess.start(env, LOGS.resolve(setup.topic() + ".log"), POD_JVM)) {
                assertThat(app.waitForExit(Duration.ofMinutes(3))).as(app.logTail()).isEqualTo(1);
                String log = app.logText();
                assertThat(log).doesNotContain("OutOfMemoryError");
                List<String> fatal = log.lines().filter(l -> l.contains(" CRITICAL ")).toList();
                assertThat(fatal).as("one line says why").hasSize(1);
                assertThat(fatal.get(0)).contains("MILLPOND_INCLUDE_VALUES_STARTUP_TIMEOUT_S")
                        .contains("response holds more values than the allowlist may take")
                        .contains("allowlist's share of the heap");
                assertThat(log).doesNotContain("\tat dev.millpond");
            }
        } finally {
            endpoint.stop(0);
        }
    }

    /** Serves {@code body} as JSON to every request, on 127.0.0.1. */
    private static HttpServer serve(byte[] body) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/teams", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "allowlist-endpoint");
            t.setDaemon(true);
            return t;
        }));
        server.start();
        return server;
    }
}
