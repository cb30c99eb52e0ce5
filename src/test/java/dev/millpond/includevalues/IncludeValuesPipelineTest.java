package dev.millpond.includevalues;

import com.sun.net.httpserver.HttpServer;
import dev.millpond.app.Pipeline;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.MillpondEnvironment;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The include-values endpoint driving the keep filter of a running pump, end to end on the real stack: a value the
 * endpoint adds starts admitting records within one interval; a value it removes stops after the damping window.
 */
@ServiceBacked
class IncludeValuesPipelineTest {

    private final AtomicReference<String> served = new AtomicReference<>("[2]");
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @Test
    void additionsAdmitWithinAnIntervalAndRemovalsStopAfterTheDampingWindow() throws Exception {
        HttpServer endpoint = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        endpoint.createContext("/teams", exchange -> {
            byte[] body = served.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        endpoint.start();
        KafkaBroker kafka = Services.kafka();
        DuckLakeStack lake = Services.newDuckLake();
        String topic = Services.uniqueName("include");
        kafka.createTopic(topic, 1);
        Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic, "FLUSH_INTERVAL_MS", "200");
        env.put("MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id");
        env.put("MILLPOND_FILTER_VALUES", "1");
        env.put("MILLPOND_INCLUDE_VALUES_URL", "http://127.0.0.1:" + endpoint.getAddress().getPort() + "/teams");
        env.put("MILLPOND_INCLUDE_VALUES_MODE", "authoritative");
        env.put("MILLPOND_INCLUDE_VALUES_POLL_INTERVAL_S", "1");
        env.put("MILLPOND_INCLUDE_VALUES_REMOVAL_POLLS", "2");
        MillpondConfig config = ConfigLoader.load(env);
        MillpondMetrics metrics = new MillpondMetrics(registry, config.pipelineLabel(), "");
        long[] nextId = {0};
        try (IncludeValuesSource source = IncludeValuesSource.create(config.includeValues(), metrics);
             Pipeline pipeline = Pipeline.open(config, metrics, new PumpHealth(),
                     AppProcess.extensionDirectory().toString(), UnaryOperator.identity(), s -> { },
                     source.effectiveSet())) {
            source.start(); // authoritative: returns after the first successful poll
            Thread pump = new Thread(pipeline.pump()::run);
            pump.start();
            try (Connection lakeQuery = lake.openQueryConnection()) {
                // pinned 1 and served 2 are admitted, 3 is not
                produce(kafka, topic, nextId, 1, 2, 3);
                await(() -> written() == 2);
                assertThat(teams(lakeQuery)).isEqualTo("1:1,2:1");

                served.set("[2,3]");
                await(() -> gauge("millpond_include_values_size") == 3);
                produce(kafka, topic, nextId, 3);
                await(() -> written() == 3);

                // 2 disappears: still admitted until two consecutive polls have shown it absent
                served.set("[3]");
                await(() -> gauge("millpond_include_values_pending_removals") == 1);
                produce(kafka, topic, nextId, 2);
                await(() -> written() == 4);
                await(() -> gauge("millpond_include_values_size") == 2);
                produce(kafka, topic, nextId, 2, 3);
                await(() -> written() == 5);
                assertThat(teams(lakeQuery)).isEqualTo("1:1,2:2,3:2");
            }
            // 2 on the first poll, 3 later
            assertThat(counter("millpond_include_values_changes_total", "action", "add")).isEqualTo(2);
            assertThat(counter("millpond_include_values_changes_total", "action", "remove")).isEqualTo(1);
            assertThat(counter("millpond_records_skipped_total", "reason", "filter_excluded")).isEqualTo(2);
            pipeline.pump().requestStop();
            pump.join(30_000);
        } finally {
            endpoint.stop(0);
        }
    }

    private static void produce(KafkaBroker kafka, String topic, long[] nextId, int... teams) {
        List<byte[]> values = new ArrayList<>();
        for (int team : teams) {
            values.add(("{\"id\":" + nextId[0]++ + ",\"team_id\":" + team + "}").getBytes(StandardCharsets.UTF_8));
        }
        kafka.produce(topic, 0, values);
    }

    private static String teams(Connection c) throws Exception {
        List<String> out = new ArrayList<>();
        try (var s = c.createStatement(); var rs = s.executeQuery(
                "SELECT team_id, count(*) FROM lake.main.events GROUP BY team_id ORDER BY team_id")) {
            while (rs.next()) {
                out.add(rs.getLong(1) + ":" + rs.getLong(2));
            }
        }
        return String.join(",", out);
    }

    private double written() {
        return counter("millpond_records_written_total");
    }

    private double gauge(String name) {
        return counter(name);
    }

    private double counter(String name, String... labels) {
        return AppProcess.metricIn(registry.scrape(), name, labels).orElse(0);
    }

    private static void await(BooleanSupplier condition) {
        Await.within(Duration.ofSeconds(30), "condition").pollInterval(Duration.ofMillis(50))
                .until(condition::getAsBoolean);
    }
}
