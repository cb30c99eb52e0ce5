package dev.millpond.convert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Strings as orjson writes them, over generated text of every kind of character: raw UTF-8, only {@code "}, backslash
 * and control characters escaped, and what comes out parses back to the same string.
 */
class JsonTextTest {

    private static final String[] PIECES = {"a", "Z", "0", " ", "\"", "\\", "/", "\b", "\t", "\n", "\f", "\r", "\u0000",
        "\u001f", "\u007f", "é", "ß", "東", "\u2028", "\uffff", "😀", "𝄞", "plain text"};

    @Test
    void aQuotedStringIsRawUtf8WithOnlyTheRequiredEscapesAndParsesBack() throws Exception {
        Random random = new Random(24);
        ObjectMapper json = new ObjectMapper();
        for (int n = 0; n < 20_000; n++) {
            String s = text(random);
            ByteBuf out = new ByteBuf(4);
            JsonText.appendQuoted(s, out);
            byte[] written = Arrays.copyOf(out.data, out.length);

            assertThat(written).as("%s", s).isEqualTo(orjson(s));
            assertThat(json.readValue(written, String.class)).isEqualTo(s);
        }
    }

    @Test
    void unquotedTextIsItsUtf8Bytes() {
        Random random = new Random(25);
        for (int n = 0; n < 20_000; n++) {
            String s = text(random);
            ByteBuf out = new ByteBuf(1);
            out.put((byte) '>');
            JsonText.appendUtf8(s.toCharArray(), 0, s.length(), out);
            assertThat(Arrays.copyOfRange(out.data, 1, out.length)).isEqualTo(s.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aLoneSurrogateCannotBeUtf8AndIsRefused() {
        for (String s : new String[]{"\ud800", "x\udc00", "\ud83d!", "ok\ud83d"}) {
            assertThatThrownBy(() -> JsonText.appendQuoted(s, new ByteBuf(8)))
                    .isInstanceOf(JsonText.InvalidTextException.class).hasMessageContaining("lone surrogate");
            assertThatThrownBy(() -> JsonText.appendUtf8(s.toCharArray(), 0, s.length(), new ByteBuf(8)))
                    .isInstanceOf(JsonText.InvalidTextException.class);
        }
    }

    private static String text(Random random) {
        StringBuilder b = new StringBuilder();
        for (int k = random.nextInt(12); k > 0; k--) {
            b.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return b.toString();
    }

    /** A character at a time, the reference: orjson's output for a Python str. */
    private static byte[] orjson(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write('"');
        s.codePoints().forEach(cp -> {
            String escaped = switch (cp) {
                case '"' -> "\\\"";
                case '\\' -> "\\\\";
                case '\b' -> "\\b";
                case '\t' -> "\\t";
                case '\n' -> "\\n";
                case '\f' -> "\\f";
                case '\r' -> "\\r";
                default -> cp < 0x20 ? String.format("\\u%04x", cp) : Character.toString(cp);
            };
            out.writeBytes(escaped.getBytes(StandardCharsets.UTF_8));
        });
        out.write('"');
        return out.toByteArray();
    }
}
