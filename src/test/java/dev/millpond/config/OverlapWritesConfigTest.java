package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MILLPOND_OVERLAP_WRITES: a flush is written while the next one is consumed, unless turned off. */
class OverlapWritesConfigTest {

    @Test
    void onByDefault() {
        assertThat(TestEnv.load().overlapWrites()).isTrue();
    }

    @ParameterizedTest
    @CsvSource({"true,true", "false,false", "FALSE,false", " True ,true", "'',true"})
    void parsesTrueAndFalse(String raw, boolean expected) {
        assertThat(TestEnv.load("MILLPOND_OVERLAP_WRITES", raw).overlapWrites()).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "0", "1", "off"})
    void rejectsAnythingElseNamingTheVariable(String raw) {
        assertThatThrownBy(() -> TestEnv.load("MILLPOND_OVERLAP_WRITES", raw)).isInstanceOf(ConfigException.class)
                .hasMessage("MILLPOND_OVERLAP_WRITES must be true or false, got '" + raw + "'");
    }
}
