package dev.millpond.ducklake;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The DuckLake catalog is in a format this build's DuckDB will not use as it is: newer than it can read or write
 * (one a newer DuckDB created or migrated), or older and in need of a one-way migration the operator has not asked
 * for. DuckLake refuses the ATTACH itself, so nothing was written; this turns its error into one line an operator can
 * act on (see docs/duckdb-version.md).
 */
public final class IncompatibleCatalogException extends SQLException {

    /** The setting that lets the ATTACH migrate an older catalog in place. */
    public static final String MIGRATION_SETTING = "MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION";

    /**
     * DuckLake's refusals of a catalog version on ATTACH: "catalog version mismatch: catalog version is X, but the
     * extension requires version Y" when it could migrate (said for newer catalogs too), and "Only DuckLake versions
     * … are supported" when asked to migrate one it cannot.
     */
    private static final Pattern MISMATCH =
            Pattern.compile("catalog version is (\\S+), but the extension requires version ([0-9][^\\s.,]*(?:\\.[0-9]+)*)");
    private static final String UNSUPPORTED = "Only DuckLake versions";

    private IncompatibleCatalogException(String message, SQLException cause) {
        super(message, cause);
    }

    /** {@code e} itself unless it is DuckLake refusing the catalog's format version. */
    static SQLException explain(SQLException e, Connection c, CatalogLocation catalog) {
        String message = String.valueOf(e.getMessage());
        Matcher mismatch = MISMATCH.matcher(message);
        int unsupported = message.indexOf(UNSUPPORTED);
        if (!mismatch.find() && unsupported < 0) {
            return e;
        }
        Optional<String> version = catalogVersion(c, catalog);
        String duckDb = duckDbVersion(c);
        if (mismatch.find(0)) {
            String found = version.orElse(mismatch.group(1));
            String required = mismatch.group(2);
            if (FormatVersion.compare(found, required) < 0) {
                return new IncompatibleCatalogException("The DuckLake catalog " + catalog + " is format version "
                        + found + ", older than the " + required + " this build's DuckDB " + duckDb + " writes; it was"
                        + " not migrated and nothing was written. Set " + MIGRATION_SETTING + "=true to migrate it in"
                        + " place to " + required + " (one way: DuckDB 1.4 readers and writers of this lake lose"
                        + " access; see docs/duckdb-version.md)", e);
            }
            return newer(e, catalog, "is format version " + found, duckDb,
                    "this build's DuckDB writes format " + required);
        }
        String supported = message.substring(unsupported).lines().findFirst().orElse(UNSUPPORTED).strip();
        return newer(e, catalog, version.map(v -> "is format version " + v).orElse("is in a format version"), duckDb,
                supported);
    }

    private static IncompatibleCatalogException newer(SQLException e, CatalogLocation catalog, String version,
                                                      String duckDb, String detail) {
        return new IncompatibleCatalogException("The DuckLake catalog " + catalog + " " + version + " that this build's"
                + " DuckDB " + duckDb + " cannot read or write (" + detail + "); nothing was written."
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

    /** DuckLake's format versions ({@code 0.3-dev1}, {@code 0.3}, {@code 1.0}) ordered by their numbers. */
    static final class FormatVersion {
        private static final Pattern NUMBERS = Pattern.compile("^(\\d+)(?:\\.(\\d+))?(?:\\.(\\d+))?(-.*)?$");

        private FormatVersion() {
        }

        /**
         * Negative when {@code a} is older than {@code b}. A pre-release ({@code 0.3-dev1}) is older than its release;
         * a version that is no version at all compares as newer, so it is never offered a migration.
         */
        static int compare(String a, String b) {
            Matcher x = NUMBERS.matcher(a.strip());
            Matcher y = NUMBERS.matcher(b.strip());
            if (!x.matches() || !y.matches()) {
                return x.matches() ? -1 : 1;
            }
            for (int g = 1; g <= 3; g++) {
                int d = Long.compare(part(x, g), part(y, g));
                if (d != 0) {
                    return d;
                }
            }
            return Boolean.compare(x.group(4) == null, y.group(4) == null);
        }

        private static long part(Matcher m, int group) {
            return m.group(group) == null ? 0 : Long.parseLong(m.group(group));
        }
    }
}
