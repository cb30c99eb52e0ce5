package dev.millpond.config;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Postgres catalog connection, shared by the writer and the maintenance tools (DUCKLAKE_RDS_*), validated in one
 * place so both reach the catalog the same way: the host is a DNS name, an IPv4 address or a bracketed IPv6 address
 * (nothing a libpq string or a JDBC URL could read as another keyword); the port an integer 1–65535.
 *
 * @param host        DUCKLAKE_RDS_HOST as given (an IPv6 address keeps its brackets; see {@link #bareHost()})
 * @param port        DUCKLAKE_RDS_PORT, default 5432
 * @param database    DUCKLAKE_RDS_DATABASE, default {@code ducklake}; any text (quoted where it is used)
 * @param user        DUCKLAKE_RDS_USERNAME, default {@code ducklake}; any text (quoted where it is used)
 * @param sslMode     DUCKLAKE_RDS_SSLMODE, one of libpq's values, default {@code prefer} (libpq's default, so the
 *                    original's behaviour)
 * @param sslRootCert DUCKLAKE_RDS_SSLROOTCERT, the CA file {@code verify-ca} and {@code verify-full} check against
 */
public record CatalogConnection(String host, int port, String database, String user, Secret password,
                                String sslMode, Optional<String> sslRootCert) {

    public static final String DEFAULT_SSL_MODE = "prefer";
    static final java.util.List<String> SSL_MODES = java.util.List.of("disable", "allow", "prefer", "require",
            "verify-ca", "verify-full");
    private static final Pattern DNS_NAME = Pattern.compile(
            "(?=.{1,253}\\.?$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}"
                    + "[A-Za-z0-9])?)*\\.?");
    private static final Pattern IPV4 = Pattern.compile(
            "(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");
    private static final Pattern IPV6_TEXT = Pattern.compile("[0-9A-Fa-f:.]{2,45}");
    private static final Pattern PLAIN_PATH = Pattern.compile("[A-Za-z0-9_./-]+");

    /** The host without an IPv6 address's brackets, as libpq and the Postgres JDBC driver's properties take it. */
    public String bareHost() {
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }

    static CatalogConnection parse(Env env) {
        String host = host(env.required("DUCKLAKE_RDS_HOST"));
        int port = port(env.orDefault("DUCKLAKE_RDS_PORT", "5432"));
        String database = env.orDefault("DUCKLAKE_RDS_DATABASE", "ducklake");
        String user = env.orDefault("DUCKLAKE_RDS_USERNAME", "ducklake");
        Secret password = Secret.of(env.required("DUCKLAKE_RDS_PASSWORD"));
        String sslMode = env.orDefaultIfEmpty("DUCKLAKE_RDS_SSLMODE", DEFAULT_SSL_MODE).strip();
        if (!SSL_MODES.contains(sslMode)) {
            throw new ConfigException("DUCKLAKE_RDS_SSLMODE must be one of " + String.join(", ", SSL_MODES)
                    + " (libpq's sslmode), got '" + sslMode + "'");
        }
        Optional<String> sslRootCert = env.optionalNonEmpty("DUCKLAKE_RDS_SSLROOTCERT").map(String::strip);
        sslRootCert.ifPresent(path -> {
            if (!java.nio.file.Files.isReadable(java.nio.file.Path.of(path))) {
                throw new ConfigException("DUCKLAKE_RDS_SSLROOTCERT names no readable file: '" + path + "'");
            }
        });
        if (sslMode.startsWith("verify-") && sslRootCert.isEmpty()) {
            throw new ConfigException("DUCKLAKE_RDS_SSLMODE=" + sslMode + " needs DUCKLAKE_RDS_SSLROOTCERT (the CA file"
                    + " the server's certificate is checked against)");
        }
        return new CatalogConnection(host, port, database, user, password, sslMode, sslRootCert);
    }

    static String host(String raw) {
        String host = raw.strip();
        if (DNS_NAME.matcher(host).matches() && !host.matches("[0-9.]+")) {
            return host;
        }
        if (IPV4.matcher(host).matches()) {
            return host;
        }
        if (host.startsWith("[") && host.endsWith("]") && isIpv6(host.substring(1, host.length() - 1))) {
            return host;
        }
        throw new ConfigException("DUCKLAKE_RDS_HOST must be a DNS name, an IPv4 address or a bracketed IPv6 address,"
                + " got '" + raw + "'");
    }

    private static boolean isIpv6(String text) {
        if (!IPV6_TEXT.matcher(text).matches() || !text.contains(":")) {
            return false;
        }
        try {
            return InetAddress.getByName(text) instanceof Inet6Address; // a literal: no name lookup
        } catch (UnknownHostException e) {
            return false;
        }
    }

    static int port(String raw) {
        int port = PythonInt.parseInt("DUCKLAKE_RDS_PORT", raw);
        if (port < 1 || port > 65535) {
            throw new ConfigException("DUCKLAKE_RDS_PORT must be between 1 and 65535, got '" + raw + "'");
        }
        return port;
    }

    /** DUCKLAKE_CONNECTION: {@code :memory:} or a plain file path (no DuckDB connection-string options). */
    static String duckDbConnection(String raw) {
        if (raw.equals(":memory:") || PLAIN_PATH.matcher(raw).matches()) {
            return raw;
        }
        throw new ConfigException("DUCKLAKE_CONNECTION must be :memory: or a plain file path (letters, digits and"
                + " _ . / -), got '" + raw + "'");
    }
}
