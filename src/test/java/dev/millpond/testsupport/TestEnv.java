package dev.millpond.testsupport;

import dev.millpond.config.ConfigLoader;
import dev.millpond.config.MillpondConfig;

import java.util.HashMap;
import java.util.Map;

/**
 * A minimal valid DuckLake environment for configuration and wiring tests that start no service, plus edits. A null
 * value removes the variable.
 */
public final class TestEnv {
    private TestEnv() {
    }

    public static Map<String, String> minimal() {
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", "b1:9092");
        env.put("KAFKA_TOPIC", "events");
        env.put("REPLICA_COUNT", "3");
        env.put("POD_NAME", "millpond-1");
        env.put("DUCKLAKE_TABLE", "events_tbl");
        env.put("DUCKLAKE_DATA_PATH", "s3://bucket/lake/");
        env.put("DUCKLAKE_CONNECTION", ":memory:");
        env.put("DUCKLAKE_RDS_HOST", "pg.internal");
        env.put("DUCKLAKE_RDS_PASSWORD", "pg-s3cr3t-pw");
        env.put("DUCKDB_S3_ACCESS_KEY_ID", "AKIAEXAMPLE");
        env.put("DUCKDB_S3_SECRET_ACCESS_KEY", "s3-s3cr3t-key");
        return env;
    }

    /** {@code with("A", "1", "B", null)}: set A, remove B. */
    public static Map<String, String> with(String... kv) {
        return with(minimal(), kv);
    }

    /** {@code base} with the edits laid over it (a copy). */
    public static Map<String, String> with(Map<String, String> base, String... kv) {
        Map<String, String> env = new HashMap<>(base);
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] == null) {
                env.remove(kv[i]);
            } else {
                env.put(kv[i], kv[i + 1]);
            }
        }
        return env;
    }

    public static MillpondConfig load(String... kv) {
        return ConfigLoader.load(with(kv));
    }
}
