package dev.millpond.sinks.ducklake;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.sql.DriverManager;

import static org.assertj.core.api.Assertions.assertThat;

/** The uuid wire grammar (spec: "The uuid wire form") evaluated by plain DuckDB. */
class UuidTextSqlTest {

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {
            "01234567-89ab-cdef-0123-456789abcdef, 01234567-89ab-cdef-0123-456789abcdef",
            "01234567-89AB-CDEF-0123-456789ABCDEF, 01234567-89ab-cdef-0123-456789abcdef",
            "0123456789abcdef0123456789abcdef, 01234567-89ab-cdef-0123-456789abcdef",
            "{01234567-89ab-cdef-0123-456789abcdef}, 01234567-89ab-cdef-0123-456789abcdef",
            "{0123456789ABCDEF0123456789abcdef}, 01234567-89ab-cdef-0123-456789abcdef",
            "urn:uuid:01234567-89ab-cdef-0123-456789abcdef, 01234567-89ab-cdef-0123-456789abcdef",
            "urn:uuid:0123456789abcdef0123456789abcdef, 01234567-89ab-cdef-0123-456789abcdef",
            "URN:UUID:01234567-89ab-cdef-0123-456789abcdef, NULL",
            "urn:uuid:{01234567-89ab-cdef-0123-456789abcdef}, NULL",
            "{urn:uuid:01234567-89ab-cdef-0123-456789abcdef}, NULL",
            "uuid:01234567-89ab-cdef-0123-456789abcdef, NULL",
            "0123-4567-89ab-cdef-0123-4567-89ab-cdef, NULL",
            "0x0123456789abcdef0123456789abcdef, NULL",
            "01234567_89ab_cdef_0123_456789abcdef, NULL",
            "' 01234567-89ab-cdef-0123-456789abcdef', NULL",
            "{01234567-89ab-cdef-0123-456789abcdef, NULL",
            "0123456789abcdef0123456789abcdeg, NULL",
            "'', NULL"})
    void acceptsExactlyTheSpecShapes(String text, String expected) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            String sql = "SELECT CAST(" + UuidTextSql.parse("t") + " AS VARCHAR) FROM (SELECT "
                    + DuckLakeSql.literal(text) + " AS t)";
            assertThat(Jdbc.queryString(c, sql)).isEqualTo(expected);
        }
    }
}
