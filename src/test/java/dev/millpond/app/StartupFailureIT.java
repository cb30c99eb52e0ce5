package dev.millpond.app;

import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.MillpondEnvironment;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** A bad environment fails the packaged app at startup with a non-zero exit and one line that names the variable. */
class StartupFailureIT {

    static Stream<Arguments> badEnvironments() {
        return Stream.of(
                Arguments.of("KAFKA_TOPIC", null, "Required environment variable KAFKA_TOPIC is not set"),
                Arguments.of("REPLICA_COUNT", "abc", "REPLICA_COUNT"),
                Arguments.of("POD_NAME", "millpond-2", "Ordinal 2 >= REPLICA_COUNT 2"),
                Arguments.of("DUCKLAKE_TABLE", "events;drop", "DUCKLAKE_TABLE contains unsafe characters"),
                Arguments.of("MILLPOND_MEMORY_LIMIT", "lots", "MILLPOND_MEMORY_LIMIT must be a size"),
                Arguments.of("KAFKA_TOPIC", "no-such-topic", "Topic 'no-such-topic' not found"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("badEnvironments")
    void failsStartupNamingTheProblem(String variable, String value, String expected) throws Exception {
        KafkaBroker kafka = Services.kafka();
        DuckLakeStack lake = Services.newDuckLake();
        String topic = Services.uniqueName("bad");
        kafka.createTopic(topic, 2);
        Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic, "REPLICA_COUNT", "2",
                "POD_NAME", "millpond-1");
        if (value == null) {
            env.remove(variable);
        } else {
            env.put(variable, value);
        }
        Path log = Path.of("target", "e2e-logs", "startup-" + variable + "-" + topic + ".log");
        try (AppProcess app = AppProcess.start(env, log)) {
            int code = app.waitForExit(Duration.ofSeconds(90));
            assertThat(code).as(app.logTail()).isNotZero();
            String text = app.logText();
            assertThat(text.lines().filter(l -> l.contains(expected)).count()).as(app.logTail()).isEqualTo(1);
        }
    }
}
