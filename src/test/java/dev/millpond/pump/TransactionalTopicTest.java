package dev.millpond.pump;

import dev.millpond.app.Pipeline;
import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.maintenance.cli.MaintenanceCli;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.DuckDbSql;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.MillpondEnvironment;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A topic written by transactional producers, on the real broker: two producers keep a transaction open at once and
 * interleave their records on every partition, then one commits and the other aborts, for several rounds (so aborted
 * records sit between committed ones, and every transaction leaves a marker on every partition). Exactly the committed
 * records land, once each; the offsets audit finds nothing missing; and once the topic is idle the pump has committed
 * to the log end, so the lag gauge reads 0.
 */
@ServiceBacked
class TransactionalTopicTest {

    private static final int PARTITIONS = 4;
    private final KafkaBroker kafka = Services.kafka();
    private final DuckLakeStack lake = Services.newDuckLake();
    private final String topic = Services.uniqueName("txn");
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @Test
    void onlyCommittedTransactionsLandOnceAndTheIdleTopicShowsNoLag() throws Exception {
        kafka.createTopic(topic, PARTITIONS);
        Set<Long> committed = new TreeSet<>();
        Random random = new Random(21);
        long id = 0;
        try (KafkaProducer<byte[], byte[]> a = kafka.transactionalProducer(topic + "-a");
             KafkaProducer<byte[], byte[]> b = kafka.transactionalProducer(topic + "-b")) {
            for (int round = 0; round < 5; round++) {
                a.beginTransaction();
                b.beginTransaction();
                boolean aCommits = round % 2 == 0;
                for (int i = 0; i < 400; i++) {
                    boolean fromA = random.nextBoolean();
                    int partition = random.nextInt(PARTITIONS);
                    (fromA ? a : b).send(new ProducerRecord<>(topic, partition, null, SampleEvents.event(id)));
                    if (fromA == aCommits) {
                        committed.add(id);
                    }
                    id++;
                }
                a.flush();
                b.flush();
                if (aCommits) {
                    a.commitTransaction();
                    b.abortTransaction();
                } else {
                    b.commitTransaction();
                    a.abortTransaction();
                }
            }
            // The last word on every partition is an abort: aborted records and a marker after the last committed row.
            a.beginTransaction();
            for (int p = 0; p < PARTITIONS; p++) {
                a.send(new ProducerRecord<>(topic, p, null, SampleEvents.event(id++)));
            }
            a.abortTransaction();
        }
        Map<Integer, Long> end = kafka.endOffsets(topic);

        Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic, "FLUSH_INTERVAL_MS", "300",
                "CONSUME_BATCH_SIZE", "150");
        MillpondConfig config = ConfigLoader.load(env);
        System.setProperty("millpond.test.lag-refresh-ms", "200");
        try (Pipeline pipeline = Pipeline.open(config, new MillpondMetrics(registry, config.pipelineLabel(), ""),
                new PumpHealth(), AppProcess.extensionDirectory().toString(), UnaryOperator.identity(), s -> { })) {
            Thread pump = new Thread(pipeline.pump()::run, "pump-under-test");
            pump.start();
            try {
                Await.within(Duration.ofSeconds(90), "committed to the log end " + end + " with lag 0")
                        .pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                            assertThat(kafka.committedOffsets(config.groupId(), topic)).isEqualTo(end);
                            assertThat(lagIsZero()).as("lag 0").isTrue();
                        });
            } finally {
                pipeline.pump().requestStop();
                pump.join(60_000);
            }
        } finally {
            System.clearProperty("millpond.test.lag-refresh-ms");
        }
        for (int p = 0; p < PARTITIONS; p++) {
            assertThat(metric("millpond_last_committed_offset", "partition", Integer.toString(p)))
                    .isEqualTo(end.get(p).doubleValue());
        }

        try (Connection c = lake.openQueryConnection()) {
            assertThat(DuckDbSql.queryLong(c, "SELECT count(*) FROM lake.main.events")).isEqualTo(committed.size());
            Set<Long> landed = new TreeSet<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM lake.main.events")) {
                while (rs.next()) {
                    landed.add(rs.getLong(1));
                }
            }
            assertThat(landed).isEqualTo(committed);
        }

        Map<String, String> auditEnv = new HashMap<>(env);
        auditEnv.put("MILLPOND_DUCKDB_EXTENSION_DIR", AppProcess.extensionDirectory().toString());
        StringWriter out = new StringWriter();
        int exit = MaintenanceCli.run(auditEnv, new PrintWriter(out, true), "audit");
        assertThat(exit).as(out.toString()).isZero();
        assertThat(out.toString()).contains("audit: clean (" + PARTITIONS + " partition(s))");
    }

    private boolean lagIsZero() {
        for (int p = 0; p < PARTITIONS; p++) {
            if (AppProcess.metricIn(registry.scrape(), "millpond_consumer_lag", "partition", Integer.toString(p))
                    .orElse(-1) != 0) {
                return false;
            }
        }
        return true;
    }

    private double metric(String name, String... labels) {
        return AppProcess.metricIn(registry.scrape(), name, labels).orElse(Double.NaN);
    }
}
