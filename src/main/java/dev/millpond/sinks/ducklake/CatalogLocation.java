package dev.millpond.sinks.ducklake;

/** Where the DuckLake catalog lives: Postgres in production, a local DuckDB file only for the embedded demo. */
public sealed interface CatalogLocation {

    /** The text after {@code ducklake:} in the ATTACH path, before SQL quoting. */
    String attachTarget();

    record Postgres(String host, String port, String database, String user, String password) implements CatalogLocation {
        /**
         * The original's libpq string: host and port verbatim, the rest quoted with libpq's escapes
         * ({@code \} to {@code \\}, {@code '} to {@code \'}).
         */
        @Override
        public String attachTarget() {
            return "postgres:host=" + host + " port=" + port + " dbname=" + libpq(database) + " user=" + libpq(user)
                    + " password=" + libpq(password);
        }

        private static String libpq(String value) {
            return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
        }

        @Override
        public String toString() {
            return "Postgres[host=" + host + ", port=" + port + ", database=" + database + ", user=" + user + "]";
        }
    }

    record LocalFile(String path) implements CatalogLocation {
        @Override
        public String attachTarget() {
            return path;
        }
    }
}
