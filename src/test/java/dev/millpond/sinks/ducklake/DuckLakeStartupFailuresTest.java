package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.StartupOutage;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.SQLException;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Startup errors as DuckDB raises them through libpq and httpfs: an outage is waited for, configuration is not. */
class DuckLakeStartupFailuresTest {

    static Stream<Arguments> errors() {
        String pg = "IO Error: Unable to connect to Postgres at \"host=127.0.0.1 port=5432 dbname=lake user=u"
                + " password=***\": connection to server at \"127.0.0.1\", port 5432 failed: ";
        return Stream.of(
                Arguments.of(pg + "Connection refused\n\tIs the server running on that host?", StartupOutage.CATALOG),
                Arguments.of(pg + "server closed the connection unexpectedly", StartupOutage.CATALOG),
                Arguments.of(pg + "FATAL:  the database system is starting up", StartupOutage.CATALOG),
                Arguments.of(pg + "timeout expired", StartupOutage.CATALOG),
                Arguments.of("IO Error: Could not establish connection error for HTTP HEAD to 'http://127.0.0.1:9/b'",
                        StartupOutage.OBJECT_STORE),
                Arguments.of("HTTP Error: HTTP GET error on 'http://s3/b/x' (HTTP 503)", StartupOutage.OBJECT_STORE),
                Arguments.of(pg + "FATAL:  password authentication failed for user \"u\"", null),
                Arguments.of(pg + "FATAL:  database \"lake\" does not exist", null),
                Arguments.of(pg + "FATAL:  no pg_hba.conf entry for host \"10.0.0.1\"", null),
                Arguments.of("HTTP Error: HTTP GET error on 'http://s3/b/x' (HTTP 403)", null),
                Arguments.of("IO Error: NoSuchBucket: The specified bucket does not exist", null),
                Arguments.of("Catalog Error: something DuckLake refused", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errors")
    void classifies(String message, StartupOutage expected) {
        assertThat(DuckLakeStartupFailures.outage(new SQLException(message))).isEqualTo(Optional.ofNullable(expected));
    }
}
