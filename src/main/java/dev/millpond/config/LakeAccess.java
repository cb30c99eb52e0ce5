package dev.millpond.config;

import java.util.Optional;

/**
 * The variables the writer and the maintenance tools share to reach one DuckLake lake, parsed by one parser so both
 * read them with the same rules and messages. The retry count is not among them: the writer and the tools each have
 * their own knob and default.
 *
 * @param dataPath           DUCKLAKE_DATA_PATH, required
 * @param connection         DUCKLAKE_CONNECTION, {@code :memory:} (k8s) or a plain path, passed to the DuckDB connect
 *                           call; required for the writer, default {@code :memory:} for the tools
 * @param catalog            DUCKLAKE_RDS_* (host, port, database, user, password, TLS)
 * @param memoryLimit        DUCKDB_MEMORY_LIMIT, empty means unset. Not validated (the original does not); whoever
 *                           applies it must quote it as a SQL literal
 * @param s3                 DUCKDB_S3_*
 * @param automaticMigration MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION, default false: attach an older catalog format with
 *                           DuckLake's AUTOMATIC_MIGRATION, migrating it in place (one way); false refuses it
 */
public record LakeAccess(
        String dataPath,
        String connection,
        CatalogConnection catalog,
        Optional<String> memoryLimit,
        S3Settings s3,
        boolean automaticMigration) {

    static final String AUTOMATIC_MIGRATION = "MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION";
    /** The tools' DUCKLAKE_CONNECTION when it is unset or empty. */
    static final String DEFAULT_TOOL_CONNECTION = ":memory:";

    /**
     * @param connectionRequired whether DUCKLAKE_CONNECTION must be set (the writer) or defaults to {@code :memory:}
     *                           when unset or empty (the maintenance tools)
     */
    static LakeAccess parse(Env env, boolean connectionRequired) {
        String dataPath = env.required("DUCKLAKE_DATA_PATH");
        String connection = CatalogConnection.duckDbConnection(connectionRequired
                ? env.required("DUCKLAKE_CONNECTION")
                : env.orDefaultIfEmpty("DUCKLAKE_CONNECTION", DEFAULT_TOOL_CONNECTION));
        CatalogConnection catalog = CatalogConnection.parse(env);
        Optional<String> memoryLimit = env.optionalNonEmpty("DUCKDB_MEMORY_LIMIT");
        S3Settings s3 = S3Settings.parse(env);
        boolean automaticMigration = env.booleanFlag(AUTOMATIC_MIGRATION, false);
        return new LakeAccess(dataPath, connection, catalog, memoryLimit, s3, automaticMigration);
    }
}
