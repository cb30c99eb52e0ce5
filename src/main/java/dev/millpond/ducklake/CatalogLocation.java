package dev.millpond.ducklake;

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
         * How long a catalog connection may take to open, and how soon a dead one is noticed, for the writer, the
         * maintenance CLI and the catalog metrics exporter alike (libpq's defaults wait forever on both). A new
         * connection gives up after 10 s. An idle one is probed after 30 s of silence, every 10 s, and dropped after 3
         * unanswered probes; one with data unacknowledged for 60 s is dropped too (TCP_USER_TIMEOUT, which also caps
         * the probes). A server that stays connected but never answers is none of these: the writer's hung-write
         * deadline covers it (docs/decisions.md, "A hung write fails liveness").
         */
        static final String CONNECTION_LIMITS = "connect_timeout=10 keepalives=1 keepalives_idle=30"
                + " keepalives_interval=10 keepalives_count=3 tcp_user_timeout=60000";

        /**
         * A libpq connection string with every value quoted with libpq's escapes ({@code \} to {@code \\}, {@code '}
         * to {@code \'}), so no value can add a keyword; then the {@link #CONNECTION_LIMITS}.
         */
        @Override
        public String attachTarget() {
            String target = "postgres:host=" + libpq(host) + " port=" + libpq(port) + " dbname=" + libpq(database)
                    + " user=" + libpq(user) + " password=" + libpq(password) + " sslmode=" + libpq(sslMode);
            return (sslRootCert.isEmpty() ? target : target + " sslrootcert=" + libpq(sslRootCert)) + " "
                    + CONNECTION_LIMITS;
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
