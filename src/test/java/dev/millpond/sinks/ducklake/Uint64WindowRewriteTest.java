package dev.millpond.sinks.ducklake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.millpond.testsupport.HostileProperties;
import dev.millpond.testsupport.VariantOracle;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class Uint64WindowRewriteTest {

    private static String rewrite(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        byte[] out = Uint64WindowRewrite.rewrite(b, 0, b.length);
        return out == null ? null : new String(out, StandardCharsets.UTF_8);
    }

    @Test
    void onlyIntegerTokensOfTheWindowOutsideStringsAreQuoted() {
        assertThat(rewrite("{\"a\":9223372036854775808,\"b\":[18446744073709551615]}"))
                .isEqualTo("{\"a\":\"9223372036854775808\",\"b\":[\"18446744073709551615\"]}");
        assertThat(rewrite("[9223372036854775807,18446744073709551616,-9223372036854775809,-18446744073709551615,"
                + "9223372036854775808.0,9223372036854775808e0,\"9223372036854775808\",\"x\\\"9223372036854775808\","
                + "99999999999999999999,09223372036854775808]")).isNull();
        assertThat(rewrite("{\"k\\\\\":10000000000000000000}")).isEqualTo("{\"k\\\\\":\"10000000000000000000\"}");
    }

    /**
     * Property over generated properties values: the rewrite of valid JSON is the oracle's value exactly (window
     * integers as strings, everything else equal), and the prefilter never skips a value that needs one.
     */
    @Test
    void theRewriteOfValidJsonIsTheOraclesValueAndThePrefilterMissesNone() {
        HostileProperties generator = new HostileProperties(new Random(7));
        int rewritten = 0;
        for (int i = 0; i < 20_000; i++) {
            HostileProperties.Value v = generator.next();
            if (!v.valid()) {
                continue;
            }
            byte[] b = v.text().getBytes(StandardCharsets.UTF_8);
            String out = rewrite(v.text());
            JsonNode expected = VariantOracle.expected(v.text()).orElseThrow();
            JsonNode actual = VariantOracle.parse(out == null ? v.text() : out);
            assertThat(actual).as(v.text()).isEqualTo(expected);
            if (out != null) {
                rewritten++;
                assertThat(Uint64WindowRewrite.mayHold(b, 0, b.length)).as(v.text()).isTrue();
            }
        }
        assertThat(rewritten).isGreaterThan(5_000);
    }
}
