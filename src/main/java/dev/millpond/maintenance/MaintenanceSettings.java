package dev.millpond.maintenance;

import dev.millpond.app.DuckLakeSinkFactory;
import dev.millpond.config.LakeAccessConfig;
import dev.millpond.sinks.ducklake.CatalogLocation;
import dev.millpond.sinks.ducklake.LakeAttachment;

import java.nio.file.Path;
import java.util.Map;

/**
 * How the maintenance tools reach the lake: the same DuckDB attachment the writer makes (same catalog, data path
 * and S3 settings, from the same variables) plus a direct Postgres session to the catalog database, which the
 * advisory lock and the batched catalog statements need.
 */
public record MaintenanceSettings(LakeAttachment attachment, CatalogLocation.Postgres catalog, String dataPath) {

    /** Where the image bakes the DuckDB extensions, as for the writer. */
    static final String DEFAULT_EXTENSION_DIR = "/opt/millpond/duckdb-extensions";
    /** Names no host, port or database: those come from {@link #jdbcProperties}. */
    static final String JDBC_URL = "jdbc:postgresql:";

    public static MaintenanceSettings fromEnvironment(Map<String, String> env) {
        LakeAccessConfig c = LakeAccessConfig.fromEnvironment(env);
        CatalogLocation.Postgres catalog = CatalogLocation.Postgres.of(c.catalog());
        String extensions = env.getOrDefault("MILLPOND_DUCKDB_EXTENSION_DIR", DEFAULT_EXTENSION_DIR);
        LakeAttachment attachment = new LakeAttachment(c.connection(), catalog, c.dataPath(),
                DuckLakeSinkFactory.s3Settings(c.s3()), c.maxRetryCount(), c.memoryLimit(), Path.of(extensions),
                c.automaticMigration());
        return new MaintenanceSettings(attachment, catalog, c.dataPath());
    }

    /** The line destructive commands print before they touch anything (no password). */
    public String describeTarget() {
        return "Target catalog: postgres " + catalog.displayHost() + ":" + catalog.port() + "/" + catalog.database()
                + " (user " + catalog.user() + "), data path " + dataPath;
    }

    /**
     * The catalog session's connection properties for the Postgres JDBC driver: every value a property of its own
     * (with the URL {@code jdbc:postgresql:} naming nothing), so no value can add a driver parameter.
     */
    java.util.Properties jdbcProperties(String applicationName) {
        java.util.Properties props = new java.util.Properties();
        props.setProperty("PGHOST", catalog.host());
        props.setProperty("PGPORT", catalog.port());
        props.setProperty("PGDBNAME", catalog.database());
        props.setProperty("user", catalog.user());
        props.setProperty("password", catalog.password());
        props.setProperty("ApplicationName", applicationName);
        props.setProperty("sslmode", catalog.sslMode());
        if (!catalog.sslRootCert().isEmpty()) {
            props.setProperty("sslrootcert", catalog.sslRootCert());
        }
        return props;
    }
}
