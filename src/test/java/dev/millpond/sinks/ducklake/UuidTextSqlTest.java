package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.ducklake.Jdbc;
import dev.millpond.vocabulary.UuidText;
import dev.millpond.vocabulary.UuidWireFormSamples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The uuid wire grammar evaluated by plain DuckDB, against the same table of cases as the Java parser. */
class UuidTextSqlTest {

    @ParameterizedTest(name = "[{index}] {2}: ''{0}''")
    @CsvFileSource(resources = "/convert/uuid-wire-form.csv", delimiter = '|', nullValues = "NULL",
            ignoreLeadingAndTrailingWhitespace = false)
    void acceptsExactlyTheWireForm(String text, String canonical, String why) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            String sql = "SELECT CAST(" + UuidTextSql.parse("t") + " AS VARCHAR) FROM (SELECT "
                    + DuckLakeSql.literal(text) + " AS t)";
            assertThat(Jdbc.queryString(c, sql)).isEqualTo(canonical);
        }
    }

    /** DuckDB and the Java parser give the same UUID, or both NULL, on seeded near-misses of the wire form. */
    @Test
    void duckDbAndTheJavaParserAgreeOnMutatedInputs() throws Exception {
        Random random = new Random(14);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             PreparedStatement p = c.prepareStatement("SELECT CAST(" + UuidTextSql.parse("t")
                     + " AS VARCHAR) FROM (SELECT CAST(? AS VARCHAR) AS t)")) {
            for (int i = 0; i < 2_000; i++) {
                String text = UuidWireFormSamples.mutated(random);
                p.setString(1, text);
                try (ResultSet rs = p.executeQuery()) {
                    rs.next();
                    UuidText.Bits java = UuidText.parse(text);
                    assertThat(rs.getString(1)).as(text).isEqualTo(java == null ? null : java.canonical());
                }
            }
        }
    }
}
