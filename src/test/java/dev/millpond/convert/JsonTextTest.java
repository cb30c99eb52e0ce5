package dev.millpond.convert;

import static dev.millpond.convert.ArrowTestSupport.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonTextTest {

    /** orjson (Rust ryu "pretty") spellings. */
    static Stream<Arguments> floats() {
        return Stream.of(
                Arguments.of(1.0, "1.0"),
                Arguments.of(-1.0, "-1.0"),
                Arguments.of(0.0, "0.0"),
                Arguments.of(-0.0, "-0.0"),
                Arguments.of(2.5, "2.5"),
                Arguments.of(0.1, "0.1"),
                Arguments.of(0.30000000000000004, "0.30000000000000004"),
                Arguments.of(100.0, "100.0"),
                Arguments.of(1e15, "1000000000000000.0"),
                Arguments.of(1e16, "1e16"),
                Arguments.of(1e20, "1e20"),
                Arguments.of(-1e20, "-1e20"),
                Arguments.of(1.2345678901234568e17, "1.2345678901234568e17"),
                Arguments.of(1234567890123456.7, "1234567890123456.8"),
                Arguments.of(0.0001, "0.0001"),
                Arguments.of(0.00001, "0.00001"),
                Arguments.of(1e-6, "1e-6"),
                Arguments.of(1.5e-7, "1.5e-7"),
                Arguments.of(0.001234, "0.001234"),
                Arguments.of(123456.789, "123456.789"),
                Arguments.of(31.245270191439438, "31.245270191439438"),
                Arguments.of(0.8701, "0.8701"),
                Arguments.of(5e-324, "5e-324"),
                Arguments.of(Double.MAX_VALUE, "1.7976931348623157e308"),
                Arguments.of(2.0e-3, "0.002"),
                Arguments.of(1.0e23, "1e23"),
                Arguments.of(9007199254740993.0, "9007199254740992.0"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("floats")
    void formatsFloatsLikeOrjson(double value, String expected) {
        assertThat(JsonText.formatDouble(value)).isEqualTo(expected);
    }

    @Test
    void formattedFloatsRoundTrip() {
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            double d = switch (i % 3) {
                case 0 -> Double.longBitsToDouble(random.nextLong());
                case 1 -> random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
                default -> (double) random.nextInt(1_000_000) / 1000;
            };
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                continue;
            }
            String s = JsonText.formatDouble(d);
            assertThat(Double.parseDouble(s)).as(s).isEqualTo(d);
            assertThat(s).doesNotContain("E").doesNotContain("+");
            assertThat(s.contains(".") || s.contains("e")).as(s).isTrue();
        }
    }

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
        assertThat(JsonText.isStrictUtf8WithoutNul(input)).isEqualTo(valid);
    }

    /**
     * The copy-instead-of-re-render shortcut for nested floats: whenever it says a literal is already in shortest form,
     * re-rendering that literal's value gives the literal back, over random plain decimals of every shape.
     */
    @Test
    void aLiteralJudgedShortestIsExactlyWhatAppendDoubleWrites() {
        Random random = new Random(20261201);
        int accepted = 0;
        for (int n = 0; n < 300_000; n++) {
            StringBuilder b = new StringBuilder();
            if (random.nextInt(4) == 0) {
                b.append('-');
            }
            int intDigits = random.nextInt(19);
            if (intDigits == 0 || random.nextInt(3) == 0) {
                b.append('0');
            } else {
                b.append((char) ('1' + random.nextInt(9)));
                for (int d = 1; d < intDigits; d++) {
                    b.append(random.nextInt(5) == 0 ? '0' : (char) ('0' + random.nextInt(10)));
                }
            }
            b.append('.');
            int zeros = random.nextInt(3) == 0 ? random.nextInt(7) : 0;
            b.append("0".repeat(zeros));
            int fracDigits = random.nextInt(19);
            for (int d = 0; d < fracDigits; d++) {
                b.append(random.nextInt(6) == 0 ? '0' : (char) ('0' + random.nextInt(10)));
            }
            if (zeros + fracDigits == 0) {
                b.append(random.nextBoolean() ? "0" : "00");
            }
            String literal = b.toString();
            char[] chars = ("xx" + literal + "yy").toCharArray();
            if (JsonText.isShortestDecimal(chars, 2, literal.length())) {
                accepted++;
                assertThat(JsonText.formatDouble(Double.parseDouble(literal))).as(literal).isEqualTo(literal);
            }
        }
        assertThat(accepted).as("the shortcut applies to a good share of literals").isGreaterThan(30_000);
    }

    /** And it applies to what real payloads carry: the shortest text of ordinary doubles. */
    @Test
    void theShortestTextOfOrdinaryDoublesIsRecognised() {
        Random random = new Random(7);
        for (int n = 0; n < 100_000; n++) {
            double v = Math.round(random.nextDouble() * Math.pow(10, random.nextInt(12)) * 1e4) / 1e4
                    * (random.nextBoolean() ? 1 : -1);
            String text = JsonText.formatDouble(v);
            if (!text.contains("e")) {
                assertThat(JsonText.isShortestDecimal(text.toCharArray(), 0, text.length())).as(text).isTrue();
            }
        }
        for (String notShortest : new String[] {"1.50", "0.30000000000000001", "1e5", "1.5e-7", "00.1", "-.5", "1.",
            "0.000001", "12345678901234567.0", "1.2345678901234567", "+1.5", "1.5x"}) {
            assertThat(JsonText.isShortestDecimal(notShortest.toCharArray(), 0, notShortest.length()))
                    .as(notShortest).isFalse();
        }
    }

    /**
     * The word-at-a-time string scan against a byte-at-a-time reference: the first quote, backslash or ASCII control
     * character (non-ASCII bytes, valid or not, are passed over), over random mixes at every alignment.
     */
    @Test
    void plainRunEndFindsTheFirstQuoteBackslashOrControlCharacter() {
        Random random = new Random(99);
        byte[][] pieces = {
            "a".getBytes(StandardCharsets.UTF_8), "xyz12345".getBytes(StandardCharsets.UTF_8), {'"'}, {'\\'}, {0},
            {0x1f}, {0x20}, {0x7f}, "é".getBytes(StandardCharsets.UTF_8), "東".getBytes(StandardCharsets.UTF_8),
            "😀".getBytes(StandardCharsets.UTF_8), bytes(0x80), bytes(0xA2), bytes(0xDC), bytes(0xFF)};
        int found = 0;
        for (int n = 0; n < 200_000; n++) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            int count = random.nextInt(12);
            for (int k = 0; k < count; k++) {
                out.writeBytes(pieces[random.nextInt(random.nextInt(4) == 0 ? pieces.length : 2)]);
            }
            byte[] b = out.toByteArray();
            int from = b.length == 0 ? 0 : random.nextInt(Math.min(3, b.length + 1));
            int expected = from;
            while (expected < b.length && b[expected] != '"' && b[expected] != '\\'
                    && !(b[expected] >= 0 && b[expected] < 0x20)) {
                expected++;
            }
            assertThat(JsonText.plainRunEnd(b, from, b.length))
                    .as("%s from %d", java.util.HexFormat.of().formatHex(b), from).isEqualTo(expected);
            if (expected < b.length) {
                found++;
            }
        }
        assertThat(found).isGreaterThan(50_000);
    }
}
