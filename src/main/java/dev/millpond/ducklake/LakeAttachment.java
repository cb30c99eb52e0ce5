package dev.millpond.ducklake;

import org.jboss.logging.Logger;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * Opens a DuckDB connection with the lake attached as {@code lake}: the one way the writer and the maintenance tools
 * reach a DuckLake, so both see the same catalog with the same S3 settings.
 *
 * @param connection         DUCKLAKE_CONNECTION ({@code :memory:} in Kubernetes)
 * @param s3Settings         DuckDB's legacy {@code s3_*} settings, in the order they are applied
 * @param maxRetryCount      {@code ducklake_max_retry_count}
 * @param extensionDirectory where the image bakes the DuckDB extensions
 * @param automaticMigration MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION: let the ATTACH migrate an older catalog format in
 *                           place (one way); without it such a catalog is refused
 */
public record LakeAttachment(
        String connection,
        CatalogLocation catalog,
        String dataPath,
        List<S3Setting> s3Settings,
        int maxRetryCount,
        Optional<String> memoryLimit,
        Path extensionDirectory,
        boolean automaticMigration) {

    /** The alias every query uses for the attached lake. */
    public static final String ALIAS = "lake";
    private static final Logger LOG = Logger.getLogger(LakeAttachment.class);
    static final int HTTP_TIMEOUT_SECONDS = 30;
    static final int HTTP_RETRIES = 3;

    public LakeAttachment {
        s3Settings = List.copyOf(s3Settings);
    }

    /** An attachment that never migrates the catalog. */
    public LakeAttachment(String connection, CatalogLocation catalog, String dataPath,
                          List<S3Setting> s3Settings, int maxRetryCount,
                          Optional<String> memoryLimit, Path extensionDirectory) {
        this(connection, catalog, dataPath, s3Settings, maxRetryCount, memoryLimit, extensionDirectory, false);
    }

    public Connection open() throws SQLException {
        Properties props = new Properties();
        // Extensions come from the image, never from the network (production pods have none to the extension CDN).
        props.setProperty("extension_directory", extensionDirectory.toString());
        props.setProperty("autoinstall_known_extensions", "false");
        props.setProperty("autoload_known_extensions", "false");
        String target = connection.equals(":memory:") ? "" : connection;
        Connection c = DriverManager.getConnection("jdbc:duckdb:" + target, props);
        try {
            // Loaded before the s3_* settings: with auto-loading off, httpfs must define them first.
            Jdbc.execute(c, "LOAD httpfs");
            Jdbc.execute(c, "LOAD ducklake");
            Jdbc.execute(c, "LOAD postgres");
            for (S3Setting s3 : s3Settings) {
                Jdbc.execute(c, "SET " + s3.name() + " = " + DuckLakeSql.literal(s3.value()));
            }
            // Every S3 request gives up after 30 s without an answer and is tried 3 times (httpfs's own defaults,
            // pinned here so an upgrade cannot make a stalled object store hang a write for longer). In seconds.
            Jdbc.execute(c, "SET http_timeout = " + HTTP_TIMEOUT_SECONDS);
            Jdbc.execute(c, "SET http_retries = " + HTTP_RETRIES);
            Jdbc.execute(c, "SET preserve_insertion_order = false");
            Jdbc.execute(c, "SET ducklake_max_retry_count = " + maxRetryCount);
            if (memoryLimit.isPresent()) {
                Jdbc.execute(c, "SET memory_limit = " + DuckLakeSql.literal(memoryLimit.get()));
            }
            attach(c);
            return c;
        } catch (SQLException e) {
            c.close();
            if (e instanceof IncompatibleCatalogException) {
                throw e;
            }
            // DuckDB's ATTACH errors quote the libpq string, password included; logs must not carry it.
            throw new SQLException(redactPassword(e.getMessage()), e.getSQLState(), e.getErrorCode());
        }
    }

    /** An operator asked for the migration; the log says whether one happened. */
    private void logMigration(Connection c, Optional<String> before) throws SQLException {
        if (before.isEmpty()) {
            return;
        }
        String after = Jdbc.queryString(c, "SELECT value FROM " + ALIAS + ".options() WHERE option_name = 'version'");
        if (!before.get().equals(after)) {
            LOG.warnf("DuckLake catalog %s migrated from format %s to %s (AUTOMATIC_MIGRATION); DuckDB releases that"
                    + " only read %s can no longer open it", catalog, before.get(), after, before.get());
        }
    }

    static String redactPassword(String message) {
        return message == null ? null
                : message.replaceAll("password\\s*=\\s*('(?:[^'\\\\]|\\\\.)*'|\\S+)", "password=***");
    }

    /**
     * The first ATTACH of a fresh catalog creates DuckLake's metadata tables; pods starting together race on that
     * and the losers see "already exists" / duplicate-key errors. The winner's tables are then there, so retry.
     */
    private void attach(Connection c) throws SQLException {
        String sql = DuckLakeSql.attach(catalog, dataPath, automaticMigration);
        Optional<String> before = automaticMigration
                ? IncompatibleCatalogException.catalogVersion(c, catalog) : Optional.empty();
        for (int attempt = 1; ; attempt++) {
            try {
                Jdbc.execute(c, sql);
                logMigration(c, before);
                return;
            } catch (SQLException e) {
                String message = String.valueOf(e.getMessage());
                boolean race = message.contains("already exists") || CommitContention.isContention(e);
                if (!race || attempt >= 5) {
                    throw IncompatibleCatalogException.explain(e, c, catalog);
                }
                LOG.warnf("ATTACH attempt %d raced another writer initialising the catalog; retrying: %s", attempt,
                        message.lines().findFirst().orElse(""));
                try {
                    Thread.sleep(250L * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }
}
