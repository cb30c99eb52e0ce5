package dev.millpond.config;

import java.util.Map;
import java.util.Optional;

/**
 * What the maintenance tools need to reach a lake: the writer's DUCKLAKE_RDS_*, DUCKDB_S3_* and DUCKLAKE_DATA_PATH,
 * with the writer's rules for each. The tools work catalog-wide, so the table, the topic and the Kafka settings are
 * not required here.
 *
 * @param connection    DUCKLAKE_CONNECTION, default {@code :memory:}
 * @param maxRetryCount COMPACTION_MAX_RETRY_COUNT, default 200: a long merge commit loses the snapshot-id race to
 *                      busy writers more often than a flush does
 * @param memoryLimit   DUCKDB_MEMORY_LIMIT
 * @param automaticMigration MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION, as for the writer
 */
public record LakeAccessConfig(
        String dataPath,
        String connection,
        CatalogConnection catalog,
        int maxRetryCount,
        Optional<String> memoryLimit,
        S3Settings s3,
        boolean automaticMigration) {

    public static LakeAccessConfig fromEnvironment(Map<String, String> vars) {
        Env env = new Env(vars);
        String dataPath = env.required("DUCKLAKE_DATA_PATH");
        String connection = CatalogConnection.duckDbConnection(env.orDefaultIfEmpty("DUCKLAKE_CONNECTION", ":memory:"));
        CatalogConnection catalog = CatalogConnection.parse(env);
        int maxRetryCount = env.intKnob("COMPACTION_MAX_RETRY_COUNT", 200);
        if (maxRetryCount <= 0) {
            throw new ConfigException("COMPACTION_MAX_RETRY_COUNT must be a positive integer, got " + maxRetryCount);
        }
        Optional<String> memoryLimit = env.optionalNonEmpty("DUCKDB_MEMORY_LIMIT");
        S3Settings s3 = ConfigLoader.s3Settings(env);
        boolean automaticMigration = env.booleanFlag(ConfigLoader.AUTOMATIC_MIGRATION, false);
        env.requireMaskableSecrets();
        return new LakeAccessConfig(dataPath, connection, catalog, maxRetryCount, memoryLimit, s3, automaticMigration);
    }
}
