package dev.millpond.sinks.ducklake;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The DuckLake catalog is in a format this build's DuckDB cannot read or write — typically a catalog a newer DuckDB
 * (such as the Python original's) has created or migrated. DuckLake refuses the ATTACH itself, so nothing was written;
 * this turns its error into one line an operator can act on (see docs/duckdb-version.md).
 */
public final class IncompatibleCatalogException extends SQLException {

    /** What DuckLake says when it refuses a catalog version on ATTACH. */
    private static final String REFUSAL = "Only DuckLake versions";

    private IncompatibleCatalogException(String message, SQLException cause) {
        super(message, cause);
    }

    /** {@code e} itself unless it is DuckLake refusing the catalog's format version. */
    static SQLException explain(SQLException e, Connection c, CatalogLocation catalog) {
        String message = String.valueOf(e.getMessage());
        int at = message.indexOf(REFUSAL);
        if (at < 0) {
            return e;
        }
        String supported = message.substring(at).lines().findFirst().orElse(REFUSAL).strip();
        String version = catalogVersion(c, catalog).map(v -> "is format version " + v)
                .orElse("is in a format version");
        return new IncompatibleCatalogException("The DuckLake catalog " + catalog + " " + version + " that this build's"
                + " DuckDB " + duckDbVersion(c) + " cannot read or write (" + supported + "); nothing was written."
                + " Run a millpond image whose DuckDB supports it (see docs/duckdb-version.md)", e);
    }

    private static String duckDbVersion(Connection c) {
        try {
            return Jdbc.queryString(c, "SELECT library_version FROM pragma_version()");
        } catch (SQLException e) {
            return "(version unknown)";
        }
    }

    /** The {@code version} row of the catalog's {@code ducklake_metadata}, read without DuckLake; empty if unreadable. */
    static Optional<String> catalogVersion(Connection c, CatalogLocation catalog) {
        String probe = "millpond_catalog_probe";
        boolean postgres = catalog instanceof CatalogLocation.Postgres;
        String attach = postgres
                ? "ATTACH " + DuckLakeSql.literal(catalog.attachTarget().substring("postgres:".length())) + " AS "
                        + probe + " (TYPE postgres, READ_ONLY)"
                : "ATTACH " + DuckLakeSql.literal(catalog.attachTarget()) + " AS " + probe + " (READ_ONLY)";
        String schema = probe + (postgres ? ".public" : ".main");
        try {
            Jdbc.execute(c, attach);
            try {
                return Optional.ofNullable(Jdbc.queryString(c,
                        "SELECT value FROM " + schema + ".ducklake_metadata WHERE key = 'version'"));
            } finally {
                Jdbc.execute(c, "DETACH " + probe);
            }
        } catch (SQLException e) {
            return Optional.empty();
        }
    }
}
