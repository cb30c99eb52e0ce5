package dev.millpond.convert;

import static dev.millpond.convert.ArrowTestSupport.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The byte-level scans the fast readers share. */
class JsonSyntaxTest {

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
            assertThat(JsonSyntax.plainRunEnd(b, from, b.length))
                    .as("%s from %d", java.util.HexFormat.of().formatHex(b), from).isEqualTo(expected);
            if (expected < b.length) {
                found++;
            }
        }
        assertThat(found).isGreaterThan(50_000);
    }
}
