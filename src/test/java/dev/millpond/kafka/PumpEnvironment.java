package dev.millpond.kafka;

import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;

import java.util.HashMap;
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
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        env.put("KAFKA_TOPIC", topic);
        env.put("GROUP_ID", groupId);
        env.put("REPLICA_COUNT", "1");
        env.put("POD_NAME", "millpond-0");
        // Short broker-side waits keep each poll of a quiet partition quick.
        env.put("FETCH_MAX_WAIT_MS", "100");
        env.put("DUCKLAKE_TABLE", "events");
        env.put("DUCKLAKE_DATA_PATH", "s3://unused/lake/");
        env.put("DUCKLAKE_CONNECTION", ":memory:");
        env.put("DUCKLAKE_RDS_HOST", "unused.invalid");
        env.put("DUCKLAKE_RDS_PASSWORD", "unused");
        env.put("DUCKDB_S3_ACCESS_KEY_ID", "unused");
        env.put("DUCKDB_S3_SECRET_ACCESS_KEY", "unused");
        for (int i = 0; i < extra.length; i += 2) {
            env.put(extra[i], extra[i + 1]);
        }
        return ConfigLoader.load(env);
    }
}
