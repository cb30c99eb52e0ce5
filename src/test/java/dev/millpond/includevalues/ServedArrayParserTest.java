package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServedArrayParserTest {

    @Test
    void anArrayOfIntegersIsAnIntegerSetWithDuplicatesMerged() throws Exception {
        ServedValues v = parse(" [1, -2, 9223372036854775807, 1] ");
        assertThat(v.type()).hasValue(FilterValues.Type.INTEGER);
        assertThat(v.values()).isEqualTo(Set.of(1L, -2L, 9223372036854775807L));
    }

    @Test
    void anArrayOfStringsKeepsTheRawStrings() throws Exception {
        ServedValues v = parse("[\"7\", \" padded \", \"550e8400-e29b-41d4-a716-446655440000\", \"not-a-uuid\"]");
        assertThat(v.type()).hasValue(FilterValues.Type.STRING);
        assertThat(v.values()).isEqualTo(Set.of("7", " padded ", "550e8400-e29b-41d4-a716-446655440000",
                "not-a-uuid"));
    }

    @Test
    void anEmptyArrayHasNoType() throws Exception {
        assertThat(parse("[]")).isEqualTo(new ServedValues(Optional.empty(), Set.of()));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "not json", "{\"values\": [1]}", "1", "\"a\"", "null", "[1.5]", "[1.0]", "[true]", "[null]", "[[1]]",
        "[{\"a\": 1}]", "[1, \"a\"]", "[\"a\", 1]", "[9223372036854775808]", "[1] [2]", "[1,]", "[1"})
    void anythingElseIsAPollFailure(String body) {
        assertThatThrownBy(() -> parse(body)).isInstanceOf(PollFailure.class);
    }

    private static ServedValues parse(String body) throws PollFailure {
        return ServedArrayParser.parse(body.getBytes(StandardCharsets.UTF_8));
    }
}
