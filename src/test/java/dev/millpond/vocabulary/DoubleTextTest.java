package dev.millpond.vocabulary;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The double format: orjson's spellings, round trips, and the shortcut that copies a literal already in that form. */
class DoubleTextTest {

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
        assertThat(DoubleText.of(value)).isEqualTo(expected);
    }

    /** Any double, NaN and infinities included, fits in MAX_LENGTH bytes written at an offset, and nothing else moves. */
    @Test
    void writeStaysWithinMaxLengthAtAnyOffset() {
        Random random = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            double d = i < 3 ? new double[] {Double.NaN, Double.NEGATIVE_INFINITY, -Double.MIN_VALUE}[i]
                    : Double.longBitsToDouble(random.nextLong());
            int at = random.nextInt(8);
            byte[] out = new byte[at + DoubleText.MAX_LENGTH + 1];
            java.util.Arrays.fill(out, (byte) '#');
            int end = DoubleText.write(d, out, at);
            String text = new String(out, at, end - at, java.nio.charset.StandardCharsets.US_ASCII);
            assertThat(end - at).as(text).isLessThanOrEqualTo(DoubleText.MAX_LENGTH);
            assertThat(text).isEqualTo(Double.isFinite(d) ? DoubleText.of(d) : "null");
            for (int j = 0; j < out.length; j++) {
                if (j < at || j >= end) {
                    assertThat(out[j]).as("byte %d outside the text", j).isEqualTo((byte) '#');
                }
            }
        }
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
            String s = DoubleText.of(d);
            assertThat(Double.parseDouble(s)).as(s).isEqualTo(d);
            assertThat(s).doesNotContain("E").doesNotContain("+");
            assertThat(s.contains(".") || s.contains("e")).as(s).isTrue();
        }
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
            if (DoubleText.isShortestDecimal(chars, 2, literal.length())) {
                accepted++;
                assertThat(DoubleText.of(Double.parseDouble(literal))).as(literal).isEqualTo(literal);
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
            String text = DoubleText.of(v);
            if (!text.contains("e")) {
                assertThat(DoubleText.isShortestDecimal(text.toCharArray(), 0, text.length())).as(text).isTrue();
            }
        }
        for (String notShortest : new String[] {"1.50", "0.30000000000000001", "1e5", "1.5e-7", "00.1", "-.5", "1.",
            "0.000001", "12345678901234567.0", "1.2345678901234567", "+1.5", "1.5x"}) {
            assertThat(DoubleText.isShortestDecimal(notShortest.toCharArray(), 0, notShortest.length()))
                    .as(notShortest).isFalse();
        }
    }
}
