package dev.millpond.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

import org.duckdb.DuckDBDriver;

/**
 * Opens DuckDB connections that load ducklake, httpfs and postgres_scanner from the directory the
 * build provisions from PyPI wheels. DuckDB would otherwise try to download them, which cannot
 * work here (and must not in production), so auto-install and auto-load are switched off: a
 * missing extension fails loudly at {@code LOAD} rather than as a network timeout.
 */
public final class DuckDbExtensions {

    static final String SYSTEM_PROPERTY = "millpond.duckdb.extensions";
    static final String ENVIRONMENT_VARIABLE = "MILLPOND_DUCKDB_EXTENSION_DIR";

    private DuckDbExtensions() {
    }

    /**
     * The extension directory: system property {@value #SYSTEM_PROPERTY}, else environment
     * variable {@value #ENVIRONMENT_VARIABLE} (both set by surefire), else {@code .duckdb-extensions}.
     */
    public static Path directory() {
        String configured = System.getProperty(SYSTEM_PROPERTY);
        if (configured == null || configured.isBlank()) {
            configured = System.getenv(ENVIRONMENT_VARIABLE);
        }
        Path directory = Path.of(configured == null || configured.isBlank() ? ".duckdb-extensions" : configured);
        if (!Files.isDirectory(directory)) {
            throw new IllegalStateException("DuckDB extension directory " + directory.toAbsolutePath()
                    + " does not exist; run: bash tools/provision-duckdb-extensions.sh 1.5.5 .duckdb-extensions");
        }
        return directory;
    }

    /** A new in-memory DuckDB connection with httpfs, ducklake and postgres loaded. */
    public static Connection openInMemory() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("extension_directory", directory().toAbsolutePath().toString());
        properties.setProperty("autoinstall_known_extensions", "false");
        properties.setProperty("autoload_known_extensions", "false");
        // The driver directly rather than DriverManager, which refuses a driver loaded by another
        // class loader than the caller's (as inside Quarkus tests).
        Connection connection = new DuckDBDriver().connect("jdbc:duckdb:", properties);
        try {
            DuckDbSql.execute(connection, "LOAD httpfs");
            DuckDbSql.execute(connection, "LOAD ducklake");
            DuckDbSql.execute(connection, "LOAD postgres");
            return connection;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }
}
