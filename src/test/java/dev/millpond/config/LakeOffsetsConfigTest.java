package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MILLPOND_LAKE_OFFSETS (exactly-once on by default) and the chaos test's pause hook. */
class LakeOffsetsConfigTest {

    @Test
    void onByDefaultWithNoTestPause() {
        MillpondConfig c = TestEnv.load();
        assertThat(c.ducklake().lakeOffsets()).isTrue();
        assertThat(c.testPauseAfterLakeCommitMs()).isZero();
    }

    @ParameterizedTest
    @CsvSource({"true,true", "false,false", "FALSE,false", " True ,true", "'',true"})
    void parsesTrueAndFalse(String raw, boolean expected) {
        assertThat(TestEnv.load("MILLPOND_LAKE_OFFSETS", raw).ducklake().lakeOffsets()).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "0", "1", "off"})
    void rejectsAnythingElseNamingTheVariable(String raw) {
        assertThatThrownBy(() -> TestEnv.load("MILLPOND_LAKE_OFFSETS", raw)).isInstanceOf(ConfigException.class)
                .hasMessage("MILLPOND_LAKE_OFFSETS must be true or false, got '" + raw + "'");
    }

    @Test
    void testPauseIsANonNegativeInteger() {
        assertThat(TestEnv.load("MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS", "200").testPauseAfterLakeCommitMs())
                .isEqualTo(200);
        assertThatThrownBy(() -> TestEnv.load("MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS", "-1"))
                .hasMessageContaining("MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS");
    }
}
