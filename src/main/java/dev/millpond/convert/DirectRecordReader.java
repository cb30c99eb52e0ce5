package dev.millpond.convert;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.io.NumberInput;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a record straight from its bytes into the columns when it lies in the common, simple subset of JSON, so that
 * its nested values can be copied as they are ({@link CanonicalNestedCopy}) instead of being tokenised and written
 * again. The subset: a top-level object whose keys have no escapes, whose integers fit in 18 digits, whose floats do
 * not overflow, and whose nested values the copier accepts. For anything else — including every malformed record —
 * it answers false and the caller undoes the row and parses the record with Jackson, which alone decides what is an
 * error and how it is reported. So this reader only has to be right about what it accepts, and a differential test
 * holds it to producing exactly the columns the Jackson path produces.
 *
 * <p>Hand-written because the point is to not tokenise nested values at all: a streaming parser must visit every token
 * of a value to skip it (Jackson's {@code skipChildren} still decodes and interns every key), which cost as much as
 * rewriting the value. Reused across records; not thread-safe.
 */
final class DirectRecordReader {
    /** Where the values of a record go: the column named, marked as touched by the record being read. */
    interface Columns {
        JsonColumn touch(String name);
    }

    private static final int MAX_FLOAT_LITERAL = 64;
    private static final int MAX_LONG_DIGITS = 18; // any 18-digit integer fits in a long

    private final CanonicalNestedCopy nested;
    private final int maxNameLength;
    private final char[] literal = new char[MAX_FLOAT_LITERAL];

    // Top-level key bytes → String, so a known key costs a hash and a compare, not a decode (keys repeat per record).
    private static final int NAME_CACHE_SIZE = 1024;
    private static final int MAX_CACHED_KEY = 64; // bytes: keeps the cache small whatever the keys
    private final byte[][] cachedKeys = new byte[NAME_CACHE_SIZE][];
    private final String[] cachedNames = new String[NAME_CACHE_SIZE];

    /** @param limits the parser's limits; values beyond them are left to the parser */
    DirectRecordReader(StreamReadConstraints limits) {
        // The record's own object is the first level of the parser's nesting limit.
        this.nested = new CanonicalNestedCopy(
                limits.getMaxNestingDepth() - 1, limits.getMaxNameLength(), limits.getMaxNumberLength());
        this.maxNameLength = limits.getMaxNameLength();
    }

    /**
     * Reads record {@code b} (already checked as strict UTF-8) into row {@code row}.
     *
     * @return true when read; false when the record is outside the subset (the row may be half-written: the caller
     *     rolls it back)
     */
    boolean read(byte[] b, int row, Columns columns) {
        final int n = b.length;
        int i = JsonSyntax.skipWhitespace(b, 0);
        if (i >= n || b[i] != '{') {
            return false;
        }
        i = JsonSyntax.skipWhitespace(b, i + 1);
        if (i < n && b[i] == '}') {
            return JsonSyntax.skipWhitespace(b, i + 1) == n;
        }
        while (true) {
            if (i >= n || b[i] != '"') {
                return false;
            }
            int keyStart = i + 1;
            int keyEnd = JsonSyntax.plainRunEnd(b, keyStart, n);
            if (keyEnd >= n || b[keyEnd] != '"' || keyEnd - keyStart > maxNameLength) {
                return false; // an escape in the key, a control character, or the end of input
            }
            String name = name(b, keyStart, keyEnd - keyStart);
            i = JsonSyntax.skipWhitespace(b, keyEnd + 1);
            if (i >= n || b[i] != ':') {
                return false;
            }
            i = JsonSyntax.skipWhitespace(b, i + 1);
            if (i >= n) {
                return false;
            }
            JsonColumn c = columns.touch(name);
            int v = b[i];
            if (v == '"') {
                i = string(b, i, row, c);
            } else if (v == '{' || v == '[') {
                ByteBuf text = c.text;
                int start = text.length;
                i = nested.copy(b, i, text);
                if (i >= 0) {
                    c.set(row, JsonColumn.K_TEXT, Vectors.span(start, text.length - start));
                }
            } else if (v == 't') {
                i = JsonSyntax.literal(b, i, JsonText.TRUE);
                c.set(row, JsonColumn.K_BOOL, 1);
            } else if (v == 'f') {
                i = JsonSyntax.literal(b, i, JsonText.FALSE);
                c.set(row, JsonColumn.K_BOOL, 0);
            } else if (v == 'n') {
                i = JsonSyntax.literal(b, i, JsonText.NULL);
                c.set(row, JsonColumn.K_NULL, 0);
            } else if (v == '-' || (v >= '0' && v <= '9')) {
                i = number(b, i, row, c);
            } else {
                return false;
            }
            if (i < 0) {
                return false;
            }
            i = JsonSyntax.skipWhitespace(b, i);
            if (i >= n) {
                return false;
            }
            if (b[i] == ',') {
                i = JsonSyntax.skipWhitespace(b, i + 1);
            } else if (b[i] == '}') {
                return JsonSyntax.skipWhitespace(b, i + 1) == n; // trailing data is the parser's to report
            } else {
                return false;
            }
        }
    }

    private String name(byte[] b, int start, int len) {
        if (len > MAX_CACHED_KEY) {
            return new String(b, start, len, StandardCharsets.UTF_8);
        }
        int slot = CanonicalNestedCopy.keyHash(b, start, len) & (NAME_CACHE_SIZE - 1);
        byte[] k = cachedKeys[slot];
        if (k != null && Arrays.equals(k, 0, k.length, b, start, start + len)) {
            return cachedNames[slot];
        }
        String name = new String(b, start, len, StandardCharsets.UTF_8);
        cachedKeys[slot] = Arrays.copyOfRange(b, start, start + len);
        cachedNames[slot] = name;
        return name;
    }

    /** A string value, unescaped into the column's text as UTF-8; the index past it, or -1. */
    private static int string(byte[] b, int i, int row, JsonColumn c) {
        final int n = b.length;
        ByteBuf text = c.text;
        int start = text.length;
        i++;
        while (true) {
            int end = JsonSyntax.plainRunEnd(b, i, n);
            if (end >= n) {
                return -1;
            }
            text.put(b, i, end - i);
            i = end;
            int ch = b[i];
            if (ch == '"') {
                c.set(row, JsonColumn.K_TEXT, Vectors.span(start, text.length - start));
                return i + 1;
            }
            if (ch != '\\' || i + 1 >= n) {
                return -1; // an unescaped control character, or the end of input
            }
            int e = b[i + 1];
            switch (e) {
                case '"', '\\', '/' -> text.put((byte) e);
                case 'b' -> text.put((byte) '\b');
                case 'f' -> text.put((byte) '\f');
                case 'n' -> text.put((byte) '\n');
                case 'r' -> text.put((byte) '\r');
                case 't' -> text.put((byte) '\t');
                case 'u' -> {
                    int cp = hex4(b, i + 2);
                    if (cp < 0) {
                        return -1;
                    }
                    if (Character.isSurrogate((char) cp)) {
                        // Only a high surrogate escape followed by a low one is a character; a lone one is the
                        // parser's to refuse.
                        int lo = Character.isHighSurrogate((char) cp) && i + 7 < n && b[i + 6] == '\\'
                                && b[i + 7] == 'u' ? hex4(b, i + 8) : -1;
                        if (lo < 0 || !Character.isLowSurrogate((char) lo)) {
                            return -1;
                        }
                        putUtf8(Character.toCodePoint((char) cp, (char) lo), text);
                        i += 6;
                    } else {
                        putUtf8(cp, text);
                    }
                    i += 4;
                }
                default -> {
                    return -1;
                }
            }
            i += 2;
        }
    }

    private static int hex4(byte[] b, int i) {
        if (i + 4 > b.length) {
            return -1;
        }
        int v = 0;
        for (int k = i; k < i + 4; k++) {
            int d = Character.digit(b[k], 16);
            if (d < 0) {
                return -1;
            }
            v = (v << 4) | d;
        }
        return v;
    }

    private static void putUtf8(int cp, ByteBuf out) {
        if (cp < 0x80) {
            out.put((byte) cp);
        } else if (cp < 0x800) {
            out.put((byte) (0xC0 | (cp >> 6)));
            out.put((byte) (0x80 | (cp & 0x3F)));
        } else if (cp < 0x10000) {
            out.put((byte) (0xE0 | (cp >> 12)));
            out.put((byte) (0x80 | ((cp >> 6) & 0x3F)));
            out.put((byte) (0x80 | (cp & 0x3F)));
        } else {
            out.put((byte) (0xF0 | (cp >> 18)));
            out.put((byte) (0x80 | ((cp >> 12) & 0x3F)));
            out.put((byte) (0x80 | ((cp >> 6) & 0x3F)));
            out.put((byte) (0x80 | (cp & 0x3F)));
        }
    }

    /** A number: a long when its integer fits in 18 digits, a double when it is a finite float; else -1. */
    private int number(byte[] b, int i, int row, JsonColumn c) {
        final int n = b.length;
        int start = i;
        boolean negative = b[i] == '-';
        if (negative) {
            i++;
        }
        int intStart = i;
        int intEnd = JsonSyntax.integerPartEnd(b, i, n);
        if (intEnd < 0) {
            return -1;
        }
        i = JsonSyntax.fractionAndExponentEnd(b, intEnd, n);
        if (i < 0) {
            return -1;
        }
        boolean isFloat = i != intEnd;
        if (!isFloat) {
            if (intEnd - intStart > MAX_LONG_DIGITS) {
                return -1;
            }
            long v = 0;
            for (int k = intStart; k < intEnd; k++) {
                v = v * 10 + (b[k] - '0');
            }
            c.set(row, JsonColumn.K_LONG, negative ? -v : v);
            return i;
        }
        int len = i - start;
        if (len > MAX_FLOAT_LITERAL) {
            return -1;
        }
        for (int k = 0; k < len; k++) {
            literal[k] = (char) b[start + k];
        }
        double d = NumberInput.parseDouble(literal, 0, len, true);
        if (Double.isInfinite(d)) {
            return -1; // overflowing literal: the column keeps its source text, as the parser path does
        }
        c.set(row, JsonColumn.K_DOUBLE, Double.doubleToRawLongBits(d));
        return i;
    }
}
