package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION: off unless an operator turns it on, for the writer and the maintenance tools. */
class AutomaticMigrationConfigTest {

    private static final String VARIABLE = "MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION";

    @Test
    void offByDefault() {
        assertThat(TestEnv.load().ducklake().automaticMigration()).isFalse();
        assertThat(LakeAccessConfig.fromEnvironment(lakeAccess(Map.of())).lake().automaticMigration()).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"true,true", "false,false", "TRUE,true", " False ,false", "'',false"})
    void parsesTrueAndFalse(String raw, boolean expected) {
        assertThat(TestEnv.load(VARIABLE, raw).ducklake().automaticMigration()).isEqualTo(expected);
        assertThat(LakeAccessConfig.fromEnvironment(lakeAccess(Map.of(VARIABLE, raw))).lake().automaticMigration())
                .isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "1", "on", "migrate"})
    void rejectsAnythingElseNamingTheVariable(String raw) {
        String message = VARIABLE + " must be true or false, got '" + raw + "'";
        assertThatThrownBy(() -> TestEnv.load(VARIABLE, raw)).isInstanceOf(ConfigException.class).hasMessage(message);
        assertThatThrownBy(() -> LakeAccessConfig.fromEnvironment(lakeAccess(Map.of(VARIABLE, raw))))
                .isInstanceOf(ConfigException.class).hasMessage(message);
    }

    private static Map<String, String> lakeAccess(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(Map.of("DUCKLAKE_DATA_PATH", "s3://b/p/", "DUCKLAKE_RDS_HOST", "pg",
                "DUCKLAKE_RDS_PASSWORD", "catalog-pw", "DUCKDB_S3_ACCESS_KEY_ID", "key-id", "DUCKDB_S3_SECRET_ACCESS_KEY", "s3-secret"));
        env.putAll(extra);
        return env;
    }
}
