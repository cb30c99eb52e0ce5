package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RecordHandlingConfigTest {

    @Test
    void unsetMeansEveryStageDisabled() {
        assertThat(TestEnv.load().recordHandling()).isEqualTo(RecordHandlingConfig.disabled());
    }

    @Test
    void typedColumnsKeepOrderLowerCaseTypesAndMergeSameTypeDuplicates() {
        RecordHandlingConfig c = TestEnv.load("MILLPOND_TYPED_COLUMNS",
                " ts:TimestampTZ, id:uuid,,ts:timestamptz , n : bigint").recordHandling();
        assertThat(c.typedColumns()).containsExactly(Map.entry("ts", PinnedType.TIMESTAMPTZ),
                Map.entry("id", PinnedType.UUID), Map.entry("n", PinnedType.BIGINT));
    }

    static Stream<Arguments> filterValues() {
        return Stream.of(
                arguments("2,4,1956,69", new FilterValues.Ints(List.of(2L, 4L, 1956L, 69L))),
                arguments(" -1 , +2 ,, ", new FilterValues.Ints(List.of(-1L, 2L))),
                arguments("1,a", new FilterValues.Strings(List.of("1", "a"))),
                arguments("1.5", new FilterValues.Strings(List.of("1.5"))),
                arguments("alpha, beta", new FilterValues.Strings(List.of("alpha", "beta"))),
                // Python's int(): underscores between digits; duplicates (as ints or as text) count once.
                arguments("1_000, 7,+7, 007", new FilterValues.Ints(List.of(1000L, 7L))),
                arguments("1__0", new FilterValues.Strings(List.of("1__0"))),
                arguments("b,a,b", new FilterValues.Strings(List.of("b", "a"))));
    }

    @ParameterizedTest
    @MethodSource("filterValues")
    void filterValuesAutoDetectIntsOrStrings(String raw, FilterValues expected) {
        RecordHandlingConfig c = TestEnv.load("MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id",
                "MILLPOND_FILTER_VALUES", raw, "MILLPOND_FILTER_DROP_FIELD_NAME", "team_id",
                "MILLPOND_FILTER_DROP_VALUES", raw).recordHandling();
        assertThat(c.keep()).contains(new FilterSpec("team_id", expected));
        assertThat(c.drop()).contains(new FilterSpec("team_id", expected));
    }

    /** MILLPOND_FILTER_VALUES is parsed once: the dynamic allowlist pins exactly what the keep filter keeps. */
    @ParameterizedTest
    @MethodSource("filterValues")
    void theIncludeValuesPinsAreTheKeepFiltersValues(String raw, FilterValues expected) {
        MillpondConfig c = TestEnv.load("MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id", "MILLPOND_FILTER_VALUES", raw,
                "MILLPOND_INCLUDE_VALUES_URL", "http://cp.internal/teams");
        assertThat(c.includeValues().staticValues()).isEqualTo(c.recordHandling().keep());
        assertThat(c.includeValues().staticValues().orElseThrow().values()).isEqualTo(expected);
    }

    @Test
    void blankFieldCountsAsUnsetAndSortByIsDeduplicated() {
        RecordHandlingConfig c = TestEnv.load("MILLPOND_FILTER_KEEP_FIELD_NAME", "  ",
                "MILLPOND_SORT_BY", "team_id, timestamp,team_id,,").recordHandling();
        assertThat(c.keep()).isEqualTo(Optional.empty());
        assertThat(c.sortBy()).containsExactly("team_id", "timestamp");
    }

    @Test
    void uuidPinnedFilterAcceptsUuidValues() {
        RecordHandlingConfig c = TestEnv.load("MILLPOND_TYPED_COLUMNS", "team:uuid",
                "MILLPOND_FILTER_KEEP_FIELD_NAME", "team",
                "MILLPOND_FILTER_VALUES", "0123abcd-4567-89ab-cdef-0123456789ab,{0123abcd456789abcdef0123456789ab}")
                .recordHandling();
        assertThat(c.keep()).isPresent();
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                arguments(new String[]{"MILLPOND_TYPED_COLUMNS", "ts"}, "MILLPOND_TYPED_COLUMNS"),
                arguments(new String[]{"MILLPOND_TYPED_COLUMNS", "ts:date"}, "MILLPOND_TYPED_COLUMNS type 'date'"),
                arguments(new String[]{"MILLPOND_TYPED_COLUMNS", "bad-name:uuid"}, "MILLPOND_TYPED_COLUMNS contains unsafe"),
                arguments(new String[]{"MILLPOND_TYPED_COLUMNS", "x:uuid,x:bigint"}, "maps 'x' to both uuid and bigint"),
                arguments(new String[]{"MILLPOND_FILTER_KEEP_FIELD_NAME", "team-id", "MILLPOND_FILTER_VALUES", "1"},
                        "MILLPOND_FILTER_KEEP_FIELD_NAME contains unsafe"),
                arguments(new String[]{"MILLPOND_FILTER_KEEP_FIELD_NAME", "team"}, "MILLPOND_FILTER_VALUES must list"),
                arguments(new String[]{"MILLPOND_FILTER_KEEP_FIELD_NAME", "team", "MILLPOND_FILTER_VALUES", " , "},
                        "MILLPOND_FILTER_VALUES must list"),
                arguments(new String[]{"MILLPOND_FILTER_DROP_FIELD_NAME", "team"}, "MILLPOND_FILTER_DROP_VALUES must list"),
                arguments(new String[]{"MILLPOND_FILTER_KEEP_FIELD_NAME", "team",
                        "MILLPOND_FILTER_VALUES", "99999999999999999999"}, "outside the 64-bit integer range"),
                arguments(new String[]{"MILLPOND_TYPED_COLUMNS", "team:uuid", "MILLPOND_FILTER_KEEP_FIELD_NAME", "team",
                        "MILLPOND_FILTER_VALUES", "0123abcd-4567-89ab-cdef-0123456789ab,nope"},
                        "MILLPOND_FILTER_VALUES value 'nope' is not a UUID"),
                arguments(new String[]{"MILLPOND_TYPED_COLUMNS", "team:uuid", "MILLPOND_FILTER_DROP_FIELD_NAME", "team",
                        "MILLPOND_FILTER_DROP_VALUES", "42"}, "MILLPOND_FILTER_DROP_VALUES value '42' is not a UUID"),
                arguments(new String[]{"MILLPOND_SORT_BY", "a,b c"}, "MILLPOND_SORT_BY contains unsafe"));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void refusedWithTheVariableNamed(String[] env, String message) {
        assertThatThrownBy(() -> TestEnv.load(env)).isInstanceOf(ConfigException.class).hasMessageContaining(message);
    }
}
