package dev.millpond.maintenance;

import dev.millpond.config.LakeAccess;
import dev.millpond.config.LakeAccessConfig;
import dev.millpond.ducklake.CatalogLocation;
import dev.millpond.ducklake.LakeAttachment;
import dev.millpond.ducklake.S3Setting;

import java.util.Map;

/**
 * How the maintenance tools reach the lake: the same DuckDB attachment the writer makes (same catalog, data path
 * and S3 settings, from the same variables) plus a direct Postgres session to the catalog database, which the
 * advisory lock and the batched catalog statements need.
 */
public record MaintenanceSettings(LakeAttachment attachment, CatalogLocation.Postgres catalog, String dataPath) {

    public static MaintenanceSettings fromEnvironment(Map<String, String> env) {
        LakeAccessConfig c = LakeAccessConfig.fromEnvironment(env);
        LakeAccess lake = c.lake();
        CatalogLocation.Postgres catalog = CatalogLocation.Postgres.of(lake.catalog());
        LakeAttachment attachment = new LakeAttachment(lake.connection(), catalog, lake.dataPath(),
                S3Setting.from(lake.s3()), c.maxRetryCount(), lake.memoryLimit(), c.extensionDirectory(),
                lake.automaticMigration());
        return new MaintenanceSettings(attachment, catalog, lake.dataPath());
    }

    /** The line destructive commands print before they touch anything (no password). */
    public String describeTarget() {
        return "Target catalog: postgres " + catalog.displayHost() + ":" + catalog.port() + "/" + catalog.database()
                + " (user " + catalog.user() + "), data path " + dataPath;
    }

    /**
     * The catalog session's data source for the Postgres JDBC driver: every value set as a typed driver property
     * (the driver encodes each one itself), never spliced into a URL, so no value can add a driver parameter.
     */
    org.postgresql.ds.PGSimpleDataSource catalogDataSource(String applicationName) {
        org.postgresql.ds.PGSimpleDataSource ds = new org.postgresql.ds.PGSimpleDataSource();
        ds.setServerNames(new String[]{catalog.displayHost()});
        ds.setPortNumbers(new int[]{Integer.parseInt(catalog.port())});
        ds.setDatabaseName(catalog.database());
        ds.setUser(catalog.user());
        ds.setPassword(catalog.password());
        ds.setApplicationName(applicationName);
        ds.setSslmode(catalog.sslMode());
        // As the DuckDB attachment's libpq string: a connection gives up after 10 s, a dead idle one is noticed
        // (the driver can only turn the kernel's keepalive on; its timing is the host's).
        ds.setConnectTimeout(10);
        ds.setTcpKeepAlive(true);
        if (!catalog.sslRootCert().isEmpty()) {
            ds.setSslRootCert(catalog.sslRootCert());
        }
        return ds;
    }
}
