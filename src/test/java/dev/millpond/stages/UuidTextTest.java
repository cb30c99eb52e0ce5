package dev.millpond.stages;

import static org.assertj.core.api.Assertions.assertThat;

import dev.millpond.convert.UuidText;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every accepted and refused shape of the spec's uuid wire form. */
class UuidTextTest {
    static final String CANONICAL = "0123abcd-4567-89ab-cdef-0123456789ab";

    @ParameterizedTest
    @ValueSource(strings = {
            "0123abcd-4567-89ab-cdef-0123456789ab",          // canonical
            "0123ABCD-4567-89AB-CDEF-0123456789AB",          // hex is case-insensitive
            "0123AbCd-4567-89aB-cDeF-0123456789Ab",
            "0123abcd456789abcdef0123456789ab",              // 32 hex
            "0123ABCD456789ABCDEF0123456789AB",
            "{0123abcd-4567-89ab-cdef-0123456789ab}",        // braces around canonical
            "{0123abcd456789abcdef0123456789ab}",            // braces around 32 hex
            "urn:uuid:0123abcd-4567-89ab-cdef-0123456789ab", // urn prefix, lower case
            "urn:uuid:0123abcd456789abcdef0123456789ab",
            "urn:uuid:0123ABCD-4567-89AB-CDEF-0123456789AB",
    })
    void accepted(String text) {
        UuidText.Bits bits = UuidText.parse(text);
        assertThat(bits).isNotNull();
        assertThat(bits.canonical()).isEqualTo(CANONICAL);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "",
            "0123-4567-89ab-cdef-0123-4567-89ab-cdef",         // hyphens at non-canonical offsets (stdlib parses it)
            "0123abcd4-567-89ab-cdef-0123456789ab",            // shifted hyphen
            "0123abcd-456789ab-cdef-0123-456789ab",
            "0x0123abcd456789abcdef0123456789ab",              // radix prefix
            "0x0123abcd-4567-89ab-cdef-0123456789",
            "0123_abcd_4567_89ab_cdef_0123_4567_89ab",         // PEP 515 underscores
            "0123abcd_4567_89ab_cdef_0123456789ab",
            "URN:UUID:0123abcd-4567-89ab-cdef-0123456789ab",   // upper-case prefix
            "Urn:Uuid:0123abcd-4567-89ab-cdef-0123456789ab",
            "urn:0123abcd-4567-89ab-cdef-0123456789ab",        // urn: alone
            "uuid:0123abcd-4567-89ab-cdef-0123456789ab",       // uuid: alone
            "0123abcd-4567-89ab-cdef-0123456789ab urn:uuid:",  // prefix elsewhere
            "{urn:uuid:0123abcd-4567-89ab-cdef-0123456789ab}", // prefix inside braces
            "urn:uuid:{0123abcd-4567-89ab-cdef-0123456789ab}", // braces inside prefix
            "{0123abcd-4567-89ab-cdef-0123456789ab",           // unbalanced braces
            "0123abcd-4567-89ab-cdef-0123456789ab}",
            "0123abcd-4567-89ab-cdef-0123456789a",             // too short
            "0123abcd-4567-89ab-cdef-0123456789abc",           // too long
            "0123abcd456789abcdef0123456789a",
            "0123abcg-4567-89ab-cdef-0123456789ab",            // non-hex digit
            " 0123abcd-4567-89ab-cdef-0123456789ab",           // surrounding whitespace
            "0123abcd-4567-89ab-cdef-0123456789ab ",
            "0123abcd-4567-89ab-cdef-0123456789aé",            // non-ASCII
            "+123abcd-4567-89ab-cdef-0123456789ab",
    })
    void refused(String text) {
        assertThat(UuidText.parse(text)).isNull();
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
