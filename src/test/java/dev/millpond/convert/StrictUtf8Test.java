package dev.millpond.convert;

import static dev.millpond.convert.ArrowTestSupport.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What a record's bytes must be before any parser sees them. */
class StrictUtf8Test {

    static Stream<Arguments> utf8() {
        return Stream.of(
                Arguments.of("ascii", "{\"a\":1}".getBytes(StandardCharsets.UTF_8), true),
                Arguments.of("multibyte", "{\"é東😀\":1}".getBytes(StandardCharsets.UTF_8), true),
                Arguments.of("long ascii", "x".repeat(100).getBytes(StandardCharsets.UTF_8), true),
                Arguments.of("U+10FFFF", bytes(0xF4, 0x8F, 0xBF, 0xBF), true),
                Arguments.of("NUL", bytes('{', 0, '}'), false),
                Arguments.of("NUL after the first 4 bytes (left to the parser)", bytes('a', 'a', 'a', 'a', 'a', 0), true),
                Arguments.of("NUL in the first 4 bytes", bytes('{', '"', 0, 'a'), false),
                Arguments.of("lone continuation", bytes(0x80), false),
                Arguments.of("0xFF", bytes('a', 0xFF), false),
                Arguments.of("overlong 2-byte", bytes(0xC0, 0xAF), false),
                Arguments.of("overlong 3-byte", bytes(0xE0, 0x80, 0xAF), false),
                Arguments.of("overlong 4-byte", bytes(0xF0, 0x80, 0x80, 0xAF), false),
                Arguments.of("surrogate", bytes(0xED, 0xA0, 0x80), false),
                Arguments.of("above U+10FFFF", bytes(0xF4, 0x90, 0x80, 0x80), false),
                Arguments.of("truncated", bytes('a', 0xE6, 0x9D), false),
                Arguments.of("latin-1", bytes('"', 0xE9, '"'), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("utf8")
    void validatesUtf8Strictly(String name, byte[] input, boolean valid) {
        assertThat(StrictUtf8.isValidWithoutLeadingNul(input)).isEqualTo(valid);
    }
}
