package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PartitionExpressionTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "year(_inserted_at),month(_inserted_at),day(_inserted_at),hour(_inserted_at)",
            "team_id", " team_id , month( _inserted_at ) ", "bucket(8, id)"})
    void wellFormedSpecsAreAccepted(String spec) {
        assertThat(TestEnv.load("DUCKLAKE_PARTITION_BY", spec).ducklake().partitionBy()).contains(spec);
    }

    @ParameterizedTest
    @ValueSource(strings = {"year(_inserted_at),,", "year(_inserted_at", "year)_inserted_at(", "(a)", "a b",
            "year(month(_inserted_at))", ",team_id", "1abc"})
    void malformedSpecsFailStartup(String spec) {
        assertThatThrownBy(() -> TestEnv.load("DUCKLAKE_PARTITION_BY", spec))
                .isInstanceOf(ConfigException.class).hasMessageContaining("DUCKLAKE_PARTITION_BY");
    }
}
