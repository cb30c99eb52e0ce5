package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
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
        assertThat(v.values().members()).isEqualTo(Set.of(1L, -2L, 9223372036854775807L));
    }

    @Test
    void anArrayOfStringsKeepsTheRawStrings() throws Exception {
        ServedValues v = parse("[\"7\", \" padded \", \"550e8400-e29b-41d4-a716-446655440000\", \"not-a-uuid\"]");
        assertThat(v.type()).hasValue(FilterValues.Type.STRING);
        assertThat(v.values().members()).isEqualTo(Set.of("7", " padded ", "550e8400-e29b-41d4-a716-446655440000",
                "not-a-uuid"));
    }

    @Test
    void anEmptyArrayHasNoType() throws Exception {
        assertThat(parse("[]")).isEqualTo(ServedValues.empty());
        assertThat(parse("[]").type()).isEqualTo(Optional.empty());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "not json", "{\"values\": [1]}", "1", "\"a\"", "null", "[1.5]", "[1.0]", "[true]", "[null]", "[[1]]",
        "[{\"a\": 1}]", "[1, \"a\"]", "[\"a\", 1]", "[9223372036854775808]", "[1] [2]", "[1,]", "[1"})
    void anythingElseIsAPollFailure(String body) {
        assertThatThrownBy(() -> parse(body)).isInstanceOf(PollFailure.class);
    }

    /** The body arrives in pieces of any size: every split gives what the whole body gives (a set or a refusal). */
    @Test
    void aBodyFedInPiecesParsesAsTheWhole() throws Exception {
        java.util.Random random = new java.util.Random(13);
        List<String> bodies = List.of("[1, -2, 9223372036854775807, 1]", "[\"a\", \"\u00e9\\u00e9\", \"\", \"x,y\"]",
                "[\"7\", \" padded \"]", "[]", " [ 12345678901234 , 5 ] ", "[1, \"a\"]", "[1.5]", "[1] [2]", "[1");
        for (String body : bodies) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            Object whole = outcome(() -> ServedArrayParser.parse(bytes, 1L << 20));
            for (int round = 0; round < 200; round++) {
                ServedArrayParser parser = new ServedArrayParser(1L << 20);
                Object pieces = outcome(() -> {
                    int at = 0;
                    while (at < bytes.length) {
                        int n = 1 + random.nextInt(Math.min(8, bytes.length - at));
                        byte[] chunk = new byte[n + 4];
                        System.arraycopy(bytes, at, chunk, 2, n); // at an offset, in a buffer reused for nothing else
                        parser.feed(chunk, 2, n);
                        at += n;
                    }
                    return parser.finish();
                });
                assertThat(pieces).as(body).isEqualTo(whole);
            }
        }
    }

    /**
     * The set may take at most the given heap: distinct values past it are refused, naming the limit; duplicates are
     * dropped as they pile up, so a list of few values repeated many times is not.
     */
    @Test
    void distinctValuesPastTheHeapLimitAreRefusedAndDuplicatesAreNot() throws Exception {
        long limit = 16 + 8 * 1000; // 1,000 integers
        StringBuilder atLimit = new StringBuilder("[");
        for (int i = 0; i < 1000; i++) {
            atLimit.append(i == 0 ? "" : ",").append(i);
        }
        assertThat(ServedArrayParser.parse(bytes(atLimit + "]"), limit).values().size()).isEqualTo(1000);
        assertThatThrownBy(() -> ServedArrayParser.parse(bytes(atLimit + ",1000]"), limit))
                .isInstanceOf(PollFailure.class)
                .hasMessageContaining("response holds more values than the allowlist may take");
        StringBuilder repeated = new StringBuilder("[");
        for (int i = 0; i < 100_000; i++) {
            repeated.append(i == 0 ? "" : ",").append(i % 500);
        }
        assertThat(ServedArrayParser.parse(bytes(repeated + "]"), limit).values().size()).isEqualTo(500);
        StringBuilder strings = new StringBuilder("[");
        for (int i = 0; i < 1000; i++) {
            strings.append(i == 0 ? "" : ",").append("\"s").append(i).append('"');
        }
        assertThatThrownBy(() -> ServedArrayParser.parse(bytes(strings + "]"), limit))
                .as("strings take more heap each").isInstanceOf(PollFailure.class);
    }

    private interface Parse {
        ServedValues run() throws PollFailure;
    }

    /** The values, or the refusal's class: what two ways of reading one body must agree on. */
    private static Object outcome(Parse parse) {
        try {
            return parse.run();
        } catch (PollFailure e) {
            return PollFailure.class;
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ServedValues parse(String body) throws PollFailure {
        return ServedArrayParser.parse(body.getBytes(StandardCharsets.UTF_8), 1L << 20);
    }
}
