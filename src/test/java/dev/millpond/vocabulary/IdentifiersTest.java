package dev.millpond.vocabulary;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The identifier rule against a character-by-character reading of it, over generated names. */
class IdentifiersTest {

    private static final String ALPHABET = "aZ_09-. é$\u0000\n東İı";

    @Test
    void aNameIsSafeExactlyWhenItStartsWithAnAsciiLetterOrUnderscoreAndContinuesWithThoseOrDigits() {
        Random random = new Random(24);
        for (int n = 0; n < 50_000; n++) {
            StringBuilder b = new StringBuilder();
            for (int k = random.nextInt(6); k > 0; k--) {
                b.append(ALPHABET.charAt(random.nextInt(random.nextBoolean() ? 5 : ALPHABET.length())));
            }
            String name = b.toString();
            assertThat(Identifiers.isSafe(name)).as("'%s'", name).isEqualTo(reference(name));
        }
        assertThat(Identifiers.isSafe("events_2024")).isTrue();
        assertThat(Identifiers.isSafe("utm-source")).isFalse();
        assertThat(Identifiers.isSafe("")).isFalse();
        assertThat(Identifiers.isSafe("ok\n")).as("no trailing newline slips past an anchor").isFalse();
    }

    private static boolean reference(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
            if (!letter && (i == 0 || c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
    }
}
