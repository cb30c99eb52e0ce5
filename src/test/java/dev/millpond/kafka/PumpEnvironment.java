package dev.millpond.kafka;

import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;
import dev.millpond.testsupport.TestEnv;

import java.util.Map;

/**
 * The environment an operator would give the pump for one topic, loaded through the real {@link ConfigLoader}, so
 * tests exercise the same translation of {@code KAFKA_CONSUMER_*} variables as production. The DuckLake variables
 * are required by the loader but never used by these Kafka-only tests.
 */
final class PumpEnvironment {

    private PumpEnvironment() {
    }

    /** {@code extra} are name/value pairs laid over the defaults. */
    static MillpondConfig load(String bootstrapServers, String topic, String groupId, String... extra) {
        Map<String, String> env = TestEnv.with("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers, "KAFKA_TOPIC", topic,
                "GROUP_ID", groupId, "REPLICA_COUNT", "1", "POD_NAME", "millpond-0",
                // Short broker-side waits keep each poll of a quiet partition quick.
                "FETCH_MAX_WAIT_MS", "100");
        return ConfigLoader.load(TestEnv.with(env, extra));
    }
}
