package dev.millpond.config;

import java.nio.file.Path;
import java.util.Map;

/**
 * What the maintenance tools need to reach a lake: the writer's lake access ({@link LakeAccess}, with
 * DUCKLAKE_CONNECTION defaulting to {@code :memory:}) and their own retry count. The tools work catalog-wide, so the
 * table, the topic and the Kafka settings are not required here.
 *
 * @param lake          DUCKLAKE_DATA_PATH, DUCKLAKE_CONNECTION, DUCKLAKE_RDS_*, DUCKDB_MEMORY_LIMIT, DUCKDB_S3_* and
 *                      MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION, with the writer's rules for each
 * @param maxRetryCount COMPACTION_MAX_RETRY_COUNT, default 200: a long merge commit loses the snapshot-id race to
 *                      busy writers more often than a flush does
 * @param extensionDirectory MILLPOND_DUCKDB_EXTENSION_DIR, read as the writer reads it
 */
public record LakeAccessConfig(LakeAccess lake, int maxRetryCount, Path extensionDirectory) {

    public static LakeAccessConfig fromEnvironment(Map<String, String> vars) {
        Env env = new Env(vars);
        LakeAccess lake = LakeAccess.parse(env, false);
        int maxRetryCount = env.intKnob("COMPACTION_MAX_RETRY_COUNT", 200);
        if (maxRetryCount <= 0) {
            throw new ConfigException("COMPACTION_MAX_RETRY_COUNT must be a positive integer, got " + maxRetryCount);
        }
        env.requireMaskableSecrets();
        return new LakeAccessConfig(lake, maxRetryCount, DuckDbExtensionDirectory.parse(env));
    }
}
