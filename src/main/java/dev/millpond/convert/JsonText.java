package dev.millpond.convert;

import dev.millpond.vocabulary.DoubleText;
import java.nio.charset.StandardCharsets;

/**
 * JSON text as orjson writes it, for nested values and keys: the literals, parser text as raw UTF-8, and quoted strings
 * with only the escapes JSON requires. The doubles inside are {@link DoubleText}'s.
 */
final class JsonText {
    private JsonText() {}

    static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    static final byte[] NULL = {'n', 'u', 'l', 'l'};
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    /** Thrown when text cannot be represented as valid UTF-8 (a lone surrogate from a backslash-u escape). */
    static final class InvalidTextException extends RuntimeException {
        InvalidTextException(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Appends chars as raw UTF-8 (no quoting, no escaping). A lone surrogate (only possible from a
     * backslash-u-D800 style escape, since the input bytes were validated) cannot be UTF-8 and is refused.
     */
    static void appendUtf8(char[] chars, int off, int len, ByteBuf out) {
        out.ensure(len);
        byte[] d = out.data;
        int p = out.length;
        int end = off + len;
        int i = off;
        // ASCII fast path.
        while (i < end) {
            char c = chars[i];
            if (c >= 0x80) {
                break;
            }
            d[p++] = (byte) c;
            i++;
        }
        out.length = p;
        if (i < end) {
            appendUtf8Slow(chars, i, end, out);
        }
    }

    private static void appendUtf8Slow(char[] chars, int i, int end, ByteBuf out) {
        for (; i < end; i++) {
            char c = chars[i];
            if (c < 0x80) {
                out.put((byte) c);
            } else {
                i = appendNonAscii(chars, i, end, c, out);
            }
        }
    }

    /** Appends one non-ASCII char (or surrogate pair) at {@code i}; returns the index of its last char. */
    private static int appendNonAscii(char[] chars, int i, int end, char c, ByteBuf out) {
        out.ensure(4);
        byte[] d = out.data;
        int p = out.length;
        if (c < 0x800) {
            d[p++] = (byte) (0xC0 | (c >> 6));
            d[p++] = (byte) (0x80 | (c & 0x3F));
        } else if (Character.isSurrogate(c)) {
            if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(chars[i + 1])) {
                int cp = Character.toCodePoint(c, chars[i + 1]);
                d[p++] = (byte) (0xF0 | (cp >> 18));
                d[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                d[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                d[p++] = (byte) (0x80 | (cp & 0x3F));
                i++;
            } else {
                throw new InvalidTextException("lone surrogate \\u" + Integer.toHexString(c) + " in string");
            }
        } else {
            d[p++] = (byte) (0xE0 | (c >> 12));
            d[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
            d[p++] = (byte) (0x80 | (c & 0x3F));
        }
        out.length = p;
        return i;
    }

    /**
     * Appends a quoted JSON string the way orjson writes it: raw UTF-8, escaping only {@code "}, {@code \},
     * and control characters below 0x20 ({@code \b \t \n \f \r}, others as backslash-u-00XX lower-case).
     */
    static void appendQuoted(char[] chars, int off, int len, ByteBuf out) {
        out.ensure(len + 2);
        byte[] d = out.data;
        int p = out.length;
        d[p++] = '"';
        int end = off + len;
        int i = off;
        while (i < end) {
            char c = chars[i];
            if (c >= 0x80 || c < 0x20 || c == '"' || c == '\\') {
                break;
            }
            d[p++] = (byte) c;
            i++;
        }
        out.length = p;
        for (; i < end; i++) {
            char c = chars[i];
            if (c >= 0x80) {
                i = appendNonAscii(chars, i, end, c, out);
            } else if (c >= 0x20 && c != '"' && c != '\\') {
                out.put((byte) c);
            } else {
                appendEscape(c, out);
            }
        }
        out.put((byte) '"');
    }

    static void appendQuoted(String s, ByteBuf out) {
        char[] chars = s.toCharArray();
        appendQuoted(chars, 0, chars.length, out);
    }

    private static void appendEscape(char c, ByteBuf out) {
        out.put((byte) '\\');
        switch (c) {
            case '"' -> out.put((byte) '"');
            case '\\' -> out.put((byte) '\\');
            case '\b' -> out.put((byte) 'b');
            case '\t' -> out.put((byte) 't');
            case '\n' -> out.put((byte) 'n');
            case '\f' -> out.put((byte) 'f');
            case '\r' -> out.put((byte) 'r');
            default -> {
                out.put((byte) 'u');
                out.put((byte) '0');
                out.put((byte) '0');
                out.put(HEX[(c >> 4) & 0xF]);
                out.put(HEX[c & 0xF]);
            }
        }
    }
}
