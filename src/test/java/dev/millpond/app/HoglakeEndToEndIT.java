package dev.millpond.app;

import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.FaultRelay;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.Services;
import dev.millpond.testsupport.hoglake.HoglakeStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka → millpond (the packaged jar) → hoglake, on the real broker, the S3 server and the contract's test server:
 * the first write bootstraps the table, every event lands once even though the server loses a commit response, the
 * hoglake metrics are on /metrics, and a failed credential probe refuses startup with the hint.
 */
class HoglakeEndToEndIT {

    private static final Path LOGS = Path.of("target", "e2e-logs");

    @Test
    void eventsLandOnceThroughALostCommitResponse(@TempDir Path dir) throws Exception {
        KafkaBroker kafka = Services.kafka();
        String topic = Services.uniqueName("hog-e2e");
        kafka.createTopic(topic, 3);
        int perPartition = 400;
        for (int p = 0; p < 3; p++) {
            kafka.produce(topic, p, SampleEvents.events((long) p * perPartition, perPartition));
        }
        try (HoglakeStack hoglake = new HoglakeStack()) {
            Map<String, String> env = hoglake.environment(kafka, topic);
            env.put("FLUSH_INTERVAL_MS", "500");
            hoglake.server().loseNextCommitResponses(1);
            try (AppProcess app = AppProcess.start(env, LOGS.resolve("hoglake-e2e-" + topic + ".log"))) {
                app.await("/readyz", Duration.ofSeconds(60), () -> app.get("/readyz").status() == 200);
                String groupId = "millpond-hoglake-" + topic + "-events";
                Map<Integer, Long> end = kafka.endOffsets(topic);
                app.await("every partition committed", Duration.ofSeconds(90),
                        () -> end.equals(kafka.committedOffsets(groupId, topic)));
                assertThat(app.metric("millpond_hoglake_commit_replays_total", "outcome", "replayed"))
                        .hasValue(1.0);
                assertThat(app.metric("millpond_hoglake_files_written_total").orElseThrow()).isPositive();
                assertThat(app.metric("millpond_hoglake_orphaned_files_total")).hasValue(0.0);
                assertThat(app.metric("millpond_records_written_total")).hasValue(3.0 * perPartition);
                assertThat(app.stop(Duration.ofSeconds(60))).isZero();
            }
            assertThat(hoglake.server().tableUuid(hoglake.catalog(), HoglakeStack.NAMESPACE, HoglakeStack.TABLE))
                    .as("the first write created the table").isNotNull();
            assertThat(hoglake.countAndDistinct("id", dir)).as("count(*), count(DISTINCT id)")
                    .containsExactly(3L * perPartition, 3L * perPartition);
        }
    }

    /**
     * The control plane down when the pod starts: waited for within the outage budget (alive, not ready, a warning
     * per attempt naming it), and once it is back every event lands once without a restart.
     */
    @Test
    void aControlPlaneDownAtStartupIsWaitedFor(@TempDir Path dir) throws Exception {
        KafkaBroker kafka = Services.kafka();
        String topic = Services.uniqueName("hog-startup");
        kafka.createTopic(topic, 2);
        int perPartition = 300;
        for (int p = 0; p < 2; p++) {
            kafka.produce(topic, p, SampleEvents.events((long) p * perPartition, perPartition));
        }
        try (HoglakeStack hoglake = new HoglakeStack();
             FaultRelay relay = FaultRelay.start("hoglake", "127.0.0.1",
                     Integer.parseInt(hoglake.server().url().replaceAll(".*:", "")))) {
            Map<String, String> env = hoglake.environment(kafka, topic);
            env.put("HOGLAKE_URL", "http://" + relay.endpoint());
            env.put("FLUSH_INTERVAL_MS", "500");
            relay.stop();
            try (AppProcess app = AppProcess.start(env, LOGS.resolve("hoglake-startup-" + topic + ".log"))) {
                String warning = "Startup: the hoglake control plane (http://" + relay.endpoint() + ") is unreachable";
                app.await("a startup warning", Duration.ofSeconds(90), () -> app.logContains(warning));
                app.assertAliveButNotReadyFor(Duration.ofSeconds(10));
                relay.start();
                String groupId = "millpond-hoglake-" + topic + "-events";
                Map<Integer, Long> end = kafka.endOffsets(topic);
                app.await("every partition committed", Duration.ofSeconds(120),
                        () -> end.equals(kafka.committedOffsets(groupId, topic)));
                app.await("/readyz", Duration.ofSeconds(30), () -> app.get("/readyz").status() == 200);
                assertThat(app.logText().lines().filter(l -> l.contains(warning)).count()).isGreaterThanOrEqualTo(2);
                assertThat(app.stop(Duration.ofSeconds(60))).isZero();
            }
            assertThat(hoglake.countAndDistinct("id", dir)).as("count(*), count(DISTINCT id)")
                    .containsExactly(2L * perPartition, 2L * perPartition);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"no bucket, HOGLAKE_DATA_PATH, s3://no-such-bucket/lake, check the bucket",
            "bad keys, HOGLAKE_S3_SECRET_KEY, wrong-secret, check the static keys"})
    void aFailedCredentialProbeRefusesStartupWithTheHint(String name, String variable, String value, String hint)
            throws Exception {
        KafkaBroker kafka = Services.kafka();
        String topic = Services.uniqueName("hog-probe");
        kafka.createTopic(topic, 1);
        try (HoglakeStack hoglake = new HoglakeStack()) {
            Map<String, String> env = hoglake.environment(kafka, topic);
            env.put(variable, value);
            try (AppProcess app = AppProcess.start(env, LOGS.resolve("hoglake-probe-" + topic + ".log"))) {
                assertThat(app.waitForExit(Duration.ofSeconds(90))).as(app.logTail()).isEqualTo(1);
                assertThat(app.logText().lines().filter(l -> l.contains("S3 credential probe failed")
                        && l.contains(hint)).count()).as(app.logTail()).isEqualTo(1);
                assertThat(app.logText()).doesNotContain("wrong-secret");
            }
        }
    }

}
