package dev.millpond.app;

import dev.millpond.demo.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.DuckLakeStack;
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

/** The broker goes away for a few seconds mid-run and comes back on the same address: nothing is lost, no crash. */
class BrokerRestartIT {

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
                kafka.stop();
                Thread.sleep(4_000);
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
}
