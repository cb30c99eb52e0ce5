package dev.millpond.sinks.ducklake;

import dev.millpond.config.CatalogConnection;

/** Where the DuckLake catalog lives: Postgres in production, a local DuckDB file only for the embedded demo. */
public sealed interface CatalogLocation {

    /** The text after {@code ducklake:} in the ATTACH path, before SQL quoting. */
    String attachTarget();

    /**
     * @param host        without an IPv6 address's brackets
     * @param sslMode     libpq's sslmode
     * @param sslRootCert the CA file, empty for none
     */
    record Postgres(String host, String port, String database, String user, String password, String sslMode,
                    String sslRootCert) implements CatalogLocation {

        /** Plain TLS negotiation as libpq does by default, no CA file. */
        public Postgres(String host, String port, String database, String user, String password) {
            this(host, port, database, user, password, CatalogConnection.DEFAULT_SSL_MODE, "");
        }

        public static Postgres of(CatalogConnection c) {
            return new Postgres(c.bareHost(), String.valueOf(c.port()), c.database(), c.user(), c.password().reveal(),
                    c.sslMode(), c.sslRootCert().orElse(""));
        }

        /** The host as a name in a JDBC or log line: an IPv6 address in brackets. */
        public String displayHost() {
            return host.contains(":") ? "[" + host + "]" : host;
        }

        /**
         * A libpq connection string with every value quoted with libpq's escapes ({@code \} to {@code \\}, {@code '}
         * to {@code \'}), so no value can add a keyword.
         */
        @Override
        public String attachTarget() {
            String target = "postgres:host=" + libpq(host) + " port=" + libpq(port) + " dbname=" + libpq(database)
                    + " user=" + libpq(user) + " password=" + libpq(password) + " sslmode=" + libpq(sslMode);
            return sslRootCert.isEmpty() ? target : target + " sslrootcert=" + libpq(sslRootCert);
        }

        static String libpq(String value) {
            return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
        }

        @Override
        public String toString() {
            return "Postgres[host=" + host + ", port=" + port + ", database=" + database + ", user=" + user
                    + ", sslmode=" + sslMode + "]";
        }
    }

    record LocalFile(String path) implements CatalogLocation {
        @Override
        public String attachTarget() {
            return path;
        }
    }
}
