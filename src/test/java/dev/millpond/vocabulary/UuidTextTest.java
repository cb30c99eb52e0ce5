package dev.millpond.vocabulary;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Every accepted and refused shape of the uuid wire form, from the table the SQL form is checked against too. */
class UuidTextTest {

    @ParameterizedTest(name = "[{index}] {2}: ''{0}''")
    @CsvFileSource(resources = "/convert/uuid-wire-form.csv", delimiter = '|', nullValues = "NULL",
            ignoreLeadingAndTrailingWhitespace = false)
    void parsesExactlyTheWireForm(String text, String canonical, String why) {
        UuidText.Bits bits = UuidText.parse(text);
        assertThat(bits == null ? null : bits.canonical()).isEqualTo(canonical);
        assertThat(Pattern.matches(UuidText.REGEX, text)).as("REGEX agrees").isEqualTo(canonical != null);
    }

    /** The hand-written parser and {@link UuidText#REGEX} agree on mutations of valid UUIDs (seeded). */
    @Test
    void theParserAndTheRegexAgreeOnMutatedInputs() {
        Random random = new Random(14);
        for (int i = 0; i < 20_000; i++) {
            String text = UuidWireFormSamples.mutated(random);
            assertThat(UuidText.parse(text) != null).as(text).isEqualTo(Pattern.matches(UuidText.REGEX, text));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
            "01890a5d-ac96-774b-bcce-b302099a8057"})
    void canonicalRoundTrips(String text) {
        assertThat(UuidText.parse(text).canonical()).isEqualTo(text);
        assertThat(UuidText.parse(text)).isEqualTo(new UuidText.Bits(
                java.util.UUID.fromString(text).getMostSignificantBits(),
                java.util.UUID.fromString(text).getLeastSignificantBits()));
    }
}
