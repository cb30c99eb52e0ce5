package dev.millpond.testsupport;

import java.util.HashMap;
import java.util.Map;

/**
 * The environment an operator gives one millpond pod on the test stack: the lake's DuckLake variables, the broker,
 * one topic, table {@code events}, a single replica. Tests lay their own variables over it.
 */
public final class MillpondEnvironment {

    private MillpondEnvironment() {
    }

    public static Map<String, String> of(KafkaBroker kafka, DuckLakeStack lake, String topic, String... overrides) {
        Map<String, String> env = new HashMap<>(lake.environment());
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
        env.put("KAFKA_TOPIC", topic);
        env.put("DUCKLAKE_TABLE", "events");
        env.put("REPLICA_COUNT", "1");
        env.put("POD_NAME", "millpond-0");
        for (int i = 0; i + 1 < overrides.length; i += 2) {
            env.put(overrides[i], overrides[i + 1]);
        }
        return env;
    }
}
