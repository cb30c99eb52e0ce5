package dev.millpond.app;

import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.FaultRelay;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.MillpondEnvironment;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The broker goes away for a few seconds mid-run and comes back on the same address: nothing is lost, no crash. And a
 * pod started while Kafka cannot be reached waits for it within MILLPOND_SINK_OUTAGE_BUDGET_S, as it waits for its
 * catalog, instead of exiting after 30 s and crash-looping; past the budget it exits 1 with one line.
 */
class BrokerRestartIT {

    /** How long Kafka stays unreachable after the app was started into the outage ({@code -Dkafka.outage.seconds}). */
    private static final Duration STARTUP_OUTAGE = Duration.ofSeconds(Long.getLong("kafka.outage.seconds", 20));

    /**
     * The bootstrap address is a {@link FaultRelay} in front of the shared broker, stopped: the client cannot reach a
     * broker to learn the cluster from. Started again within the budget, everything lands once, without a restart.
     */
    @Test
    void kafkaUnreachableAtStartupIsWaitedForAndEverythingLandsOnce() throws Exception {
        KafkaBroker kafka = Services.kafka();
        DuckLakeStack lake = Services.newDuckLake();
        String topic = Services.uniqueName("kafka-down");
        kafka.createTopic(topic, 2);
        kafka.produce(topic, 0, SampleEvents.events(0, 500));
        kafka.produce(topic, 1, SampleEvents.events(500, 500));
        int brokerPort = Integer.parseInt(kafka.bootstrapServers().substring(kafka.bootstrapServers().lastIndexOf(':')
                + 1));
        try (FaultRelay bootstrap = FaultRelay.start("kafka", "127.0.0.1", brokerPort)) {
            bootstrap.stop();
            Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic, "FLUSH_INTERVAL_MS", "500",
                    "KAFKA_BOOTSTRAP_SERVERS", bootstrap.endpoint());
            try (AppProcess app = AppProcess.start(env, DuckLakeEndToEndIT.LOGS.resolve(topic + ".log"))) {
                String warning = "Startup: Kafka (bootstrap servers " + bootstrap.endpoint() + ") is unreachable";
                app.await("the first startup warning", Duration.ofSeconds(90), () -> app.logContains(warning));
                app.assertAliveButNotReadyFor(STARTUP_OUTAGE);
                long attempts = app.logText().lines().filter(l -> l.contains(warning)).count();
                bootstrap.start();
                long back = System.nanoTime();
                app.await("every event written", Duration.ofMinutes(2),
                        () -> DuckLakeEndToEndIT.distinctIds(lake) == 1_000);
                app.await("ready once Kafka answered", Duration.ofSeconds(30),
                        () -> app.get("/readyz").status() == 200);
                System.out.printf("[kafka startup outage] %d warnings in %ds; all written %.1fs after Kafka returned%n",
                        attempts, STARTUP_OUTAGE.toSeconds(), (System.nanoTime() - back) / 1e9);
                assertThat(attempts).as("one warning per attempt").isGreaterThanOrEqualTo(2);
                assertThat(app.logText()).contains("Kafka answered on attempt");
                try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT count(*) FROM lake.main.events")) {
                    rs.next();
                    assertThat(rs.getLong(1)).isEqualTo(1_000);
                }
                app.awaitCommittedToEnd(kafka, topic, "millpond-" + topic + "-events", Duration.ofSeconds(60));
                assertThat(app.stop(Duration.ofSeconds(60))).isZero();
            }
        }
    }

    @Test
    void kafkaStillUnreachableWhenTheBudgetIsSpentEndsStartupWithExitOne() throws Exception {
        KafkaBroker kafka = Services.kafka();
        String topic = Services.uniqueName("kafka-gone");
        kafka.createTopic(topic, 1);
        int unused = AppProcess.freePort();
        Map<String, String> env = MillpondEnvironment.of(kafka, Services.newDuckLake(), topic,
                "KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + unused, "MILLPOND_SINK_OUTAGE_BUDGET_S", "6");
        try (AppProcess app = AppProcess.start(env, DuckLakeEndToEndIT.LOGS.resolve(topic + ".log"))) {
            int exit = app.waitForExit(Duration.ofSeconds(90));
            assertThat(exit).as(app.logTail()).isEqualTo(1);
            String text = app.logText();
            assertThat(text.lines().filter(l -> l.contains("Kafka (bootstrap servers 127.0.0.1:" + unused
                    + ") stayed unreachable at startup for") && l.contains("outage budget 6s")).count())
                    .as(app.logTail()).isEqualTo(1);
            assertThat(text).doesNotContain("Fatal error in main loop");
        }
    }

    @Test
    void aBrokerRestartMidRunLosesNothing() throws Exception {
        DuckLakeStack lake = Services.newDuckLake();
        try (KafkaBroker kafka = KafkaBroker.start()) {
            String topic = Services.uniqueName("restart");
            kafka.createTopic(topic, 4);
            long id = 0;
            for (int p = 0; p < 4; p++) {
                kafka.produce(topic, p, SampleEvents.events(id, 1_000));
                id += 1_000;
            }
            Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic, "FLUSH_INTERVAL_MS", "500");
            try (AppProcess app = AppProcess.start(env, DuckLakeEndToEndIT.LOGS.resolve(topic + ".log"))) {
                app.await("the first events written", Duration.ofMinutes(2),
                        () -> app.metric("millpond_records_written_total").orElse(0) >= 4_000);
                String refused = "could not be established"; // the Kafka client's warning for a node it cannot reach
                long before = app.logText().lines().filter(l -> l.contains(refused)).count();
                kafka.stop();
                // In the outage once the app has tried the broker again and failed (not after a guessed sleep).
                app.await("a failed reconnect to the stopped broker", Duration.ofSeconds(60),
                        () -> logLines(app, refused) > before);
                assertThat(app.isAlive()).as("survives the outage").isTrue();
                kafka.restart();
                for (int p = 0; p < 4; p++) {
                    kafka.produce(topic, p, SampleEvents.events(id, 500));
                    id += 500;
                }
                long total = id;
                app.await("every event after the restart", Duration.ofMinutes(2),
                        () -> DuckLakeEndToEndIT.distinctIds(lake) == total);
                try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT count(*) FROM lake.main.events")) {
                    rs.next();
                    assertThat(rs.getLong(1)).isEqualTo(total);
                }
                Map<Integer, Long> end = kafka.endOffsets(topic);
                app.await("offsets committed to the end", Duration.ofSeconds(60),
                        () -> kafka.committedOffsets("millpond-" + topic + "-events", topic).equals(end));
                assertThat(app.stop(Duration.ofSeconds(60))).isZero();
            }
        }
    }

    private static long logLines(AppProcess app, String text) {
        try {
            return app.logText().lines().filter(l -> l.contains(text)).count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
