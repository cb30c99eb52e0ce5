package dev.millpond.convert;

import dev.millpond.vocabulary.DoubleText;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * Random JSON records spelled in many equivalent ways, for differential tests of the direct reader against the Jackson
 * path: random whitespace, every kind of string escape (short escapes, upper/lower-case backslash-u, surrogate pairs,
 * control characters, lone surrogates), numbers at the edges (-0, int64 limits, big integers, exponents, overflow,
 * subnormals, trailing zeros), keys repeated at any depth, deep nesting and non-ASCII text. About half of the records
 * are written canonically (as the converter writes nested values), so the copying path is exercised as much as the
 * fallbacks; a few are damaged.
 */
final class NoisyJson {
    private static final String[] KEYS = {"a", "b", "c", "dup", "", "é", "東京", "😀", "k\"q", "back\\slash", "tab\t",
        "$os", "nul\u0000", "ctl\u001f", "longer_key_name_over_sixteen_bytes"};
    private static final String[] WORDS = {"", "x", "héllo", "東京", "😀", "a\"b", "\\", "/path/", "line\nbreak", "\t",
        "\u0000", "\u0001\u001f", "\u007f", "\b\f\r", "𝄞", "mixed 😀 \u00e9\n\"q\""};
    private static final String[] FLOATS = {"0.0", "-0.0", "1.0", "-1.5", "0.1", "1.50", "1.0e0", "1e5", "1E+5", "1e-5",
        "1.5e-7", "1e16", "1e20", "1e400", "-1e400", "1e-400", "5e-324", "4.9E-324", "1.7976931348623157e308",
        "2.2250738585072014E-308", "0.30000000000000004", "123456789012345.0", "1234567890123456.0", "12345678901234567.0",
        "0.00001", "0.0001", "100.0", "100.00", "0e0", "-0e-0", "0.000", "3.14159265358979", "2.718281828459045"};
    private static final String[] INTS = {"0", "-0", "1", "-1", "42", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "-9223372036854775809", "18446744073709551615", "123456789012345678",
        "1234567890123456789", "99999999999999999999999999999999", "18446744073709551616", "18446744073709551614",
        "9999999999999999999", "10000000000000000000", "9223372036854775806"};
    private static final String[] BAD = {"01", "1.", ".5", "-", "+1", "1e", "NaN", "Infinity", "tru", "nul", "'x'",
        "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\\ud800\"", "\"\\ud83d\"", "\"a\u0001b\"", "[1,]", "{\"a\":1,}",
        "{\"a\" 1}", "[1 2]", "1.5.5"};

    private final Random random;
    private boolean canonical;
    private int whitespace; // percent chance of whitespace between tokens
    private boolean damaged;

    NoisyJson(Random random) {
        this.random = random;
    }

    byte[] record() {
        canonical = random.nextBoolean();
        whitespace = canonical ? 0 : random.nextInt(4) == 0 ? 30 : 0;
        damaged = random.nextInt(25) == 0;
        StringBuilder sb = new StringBuilder();
        ws(sb);
        if (random.nextInt(200) == 0) {
            value(sb, 3); // a top-level value of any kind
        } else {
            object(sb, 4 + random.nextInt(3), true);
        }
        ws(sb);
        if (random.nextInt(300) == 0) {
            sb.append(random.nextBoolean() ? "{}" : "x");
        }
        byte[] b = rawBytes(sb.toString().getBytes(StandardCharsets.UTF_8));
        if (random.nextInt(100) == 0 && b.length > 1) {
            return Arrays.copyOf(b, random.nextInt(b.length)); // truncated
        }
        return b;
    }

    /** A record holding one value nested {@code depth} levels deep in arrays and objects. */
    byte[] deepRecord(int depth) {
        StringBuilder sb = new StringBuilder("{\"deep\":");
        StringBuilder closers = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            boolean array = random.nextBoolean();
            sb.append(array ? "[" : "{\"k\":");
            closers.append(array ? ']' : '}');
        }
        sb.append(random.nextInt(10)).append(closers.reverse()).append('}');
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Stands for raw bytes in the generated text: never produced otherwise, replaced by {@link #rawBytes}. */
    private static final char RAW = '\uE000';
    private static final byte[][] RAW_BYTES = {
        // invalid: overlong, surrogate, above U+10FFFF, lone continuation, truncated, never-valid bytes
        {(byte) 0xC0, (byte) 0x80}, {(byte) 0xE0, (byte) 0x80, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
        {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0x80}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0xFF},
        {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xC2},
        // valid, at the edges of each length and around the surrogates
        {(byte) 0xC2, (byte) 0x80}, {(byte) 0xDF, (byte) 0xBF}, {(byte) 0xE0, (byte) 0xA0, (byte) 0x80},
        {(byte) 0xED, (byte) 0x9F, (byte) 0xBF}, {(byte) 0xEE, (byte) 0x80, (byte) 0x80}, {(byte) 0xEF, (byte) 0xBF, (byte) 0xBF},
        {(byte) 0xF0, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xF4, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF}};

    /** Replaces each {@link #RAW} (UTF-8 EE 80 80) by one of {@link #RAW_BYTES}, valid or not. */
    private byte[] rawBytes(byte[] b) {
        java.io.ByteArrayOutputStream out = null;
        for (int i = 0; i < b.length; i++) {
            if (i + 2 < b.length && b[i] == (byte) 0xEE && b[i + 1] == (byte) 0x80 && b[i + 2] == (byte) 0x80) {
                if (out == null) {
                    out = new java.io.ByteArrayOutputStream(b.length + 8);
                    out.write(b, 0, i);
                }
                out.writeBytes(RAW_BYTES[random.nextInt(RAW_BYTES.length)]);
                i += 2;
            } else if (out != null) {
                out.write(b[i]);
            }
        }
        return out == null ? b : out.toByteArray();
    }

    private void ws(StringBuilder sb) {
        if (random.nextInt(3000) == 0) {
            sb.append(RAW); // non-ASCII outside a string: never JSON
        }
        if (whitespace > 0 && random.nextInt(100) < whitespace) {
            int n = 1 + random.nextInt(3);
            for (int i = 0; i < n; i++) {
                sb.append(" \t\n\r".charAt(random.nextInt(4)));
            }
        }
    }

    private void object(StringBuilder sb, int depth, boolean top) {
        sb.append('{');
        ws(sb);
        int n = random.nextInt(top ? 10 : 6);
        boolean wide = random.nextInt(40) == 0;
        boolean dupsInWide = random.nextBoolean();
        if (wide) {
            n = 60 + random.nextInt(440); // across the copier's switch from a scan to a hash index at 64 keys
        }
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append(',');
                ws(sb);
            }
            // Wide objects: half of them without a repeated key, so both the copier's hash index and the fallback run.
            String key;
            if (wide) {
                key = dupsInWide && i > 0 && random.nextInt(n) < 2 ? "k" + random.nextInt(i) : "k" + i;
            } else {
                key = random.nextInt(8) == 0 ? KEYS[random.nextInt(KEYS.length)] : "k" + i;
            }
            string(sb, key);
            ws(sb);
            sb.append(':');
            ws(sb);
            value(sb, wide ? 0 : depth - 1);
            ws(sb);
        }
        sb.append('}');
    }

    private void value(StringBuilder sb, int depth) {
        if (damaged && random.nextInt(30) == 0) {
            sb.append(BAD[random.nextInt(BAD.length)]);
            return;
        }
        int r = random.nextInt(depth > 0 ? 12 : 8);
        switch (r) {
            case 0 -> sb.append("null");
            case 1 -> sb.append(random.nextBoolean() ? "true" : "false");
            case 2 -> sb.append(INTS[random.nextInt(INTS.length)]);
            case 3 -> sb.append(random.nextLong() >> random.nextInt(64));
            case 4 -> sb.append(randomFloat());
            case 5 -> sb.append(FLOATS[random.nextInt(FLOATS.length)]);
            case 6, 7 -> string(sb, random.nextInt(3) == 0 ? randomText() : WORDS[random.nextInt(WORDS.length)]);
            case 8, 9 -> object(sb, depth, false);
            default -> {
                sb.append('[');
                ws(sb);
                int n = random.nextInt(5);
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        sb.append(',');
                        ws(sb);
                    }
                    value(sb, depth - 1);
                    ws(sb);
                }
                sb.append(']');
            }
        }
    }

    private String randomFloat() {
        double d = switch (random.nextInt(4)) {
            case 0 -> random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
            case 1 -> Double.longBitsToDouble(random.nextLong());
            case 2 -> Math.round(random.nextDouble() * 1e6) / 100.0;
            default -> random.nextInt(100000) / 1000.0;
        };
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            d = 0.5;
        }
        if (canonical) {
            return DoubleText.of(d);
        }
        return switch (random.nextInt(5)) {
            case 0 -> Double.toString(d);
            case 1 -> String.format(Locale.ROOT, "%." + random.nextInt(6) + "f", d);
            case 2 -> String.format(Locale.ROOT, "%.6e", d);
            case 3 -> new java.math.BigDecimal(d).toPlainString().replaceFirst("^(-?\\d+)$", "$1.0");
            default -> DoubleText.of(d);
        };
    }

    private String randomText() {
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(12);
        for (int i = 0; i < n; i++) {
            switch (random.nextInt(6)) {
                case 0 -> sb.append((char) (0x20 + random.nextInt(0x5f)));
                case 1 -> sb.append((char) random.nextInt(0x20));
                case 2 -> sb.append((char) (0xa0 + random.nextInt(0x2000)));
                case 3 -> sb.appendCodePoint(0x10000 + random.nextInt(0x100000 - 0x10000));
                case 4 -> sb.append("\"\\/".charAt(random.nextInt(3)));
                default -> sb.append((char) (0x3000 + random.nextInt(0xa000)));
            }
        }
        return sb.toString();
    }

    /** A JSON string: canonically escaped in canonical records, else with each character spelled at random. */
    private void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length();
            int style = canonical ? 0 : random.nextInt(5);
            if (style == 4 || (c < 0x20 && style == 0 && canonical)) {
                // backslash-u, sometimes upper-case, pairs for supplementary characters
                String hex = hex(c);
                if (c < 0x20 && canonical) {
                    canonicalEscape(sb, c);
                    continue;
                }
                sb.append(random.nextBoolean() ? hex : hex.toUpperCase(Locale.ROOT).replace("\\U", "\\u"));
                if (pair) {
                    char lo = s.charAt(++i);
                    sb.append(hex(lo).toUpperCase(Locale.ROOT).replace("\\U", "\\u"));
                }
            } else if (c < 0x20 || c == '"' || c == '\\') {
                if (canonical || random.nextBoolean()) {
                    canonicalEscape(sb, c);
                } else {
                    sb.append(hex(c));
                }
            } else if (c == '/' && style == 3) {
                sb.append("\\/");
            } else {
                sb.append(c);
                if (pair) {
                    sb.append(s.charAt(++i));
                }
            }
        }
        if (random.nextInt(80) == 0) {
            sb.append(RAW); // raw bytes in a string, valid UTF-8 or not
        }
        if (!canonical && random.nextInt(2000) == 0) {
            sb.append("\\ud800"); // a lone surrogate: refused
        }
        sb.append('"');
    }

    /** backslash-u and four lower-case hex digits. */
    private static String hex(char c) {
        String h = Integer.toHexString(c);
        return "\\u" + "0000".substring(h.length()) + h;
    }

    private static void canonicalEscape(StringBuilder sb, char c) {
        switch (c) {
            case '"' -> sb.append("\\\"");
            case '\\' -> sb.append("\\\\");
            case '\b' -> sb.append("\\b");
            case '\t' -> sb.append("\\t");
            case '\n' -> sb.append("\\n");
            case '\f' -> sb.append("\\f");
            case '\r' -> sb.append("\\r");
            default -> sb.append(hex(c));
        }
    }
}
