package dev.millpond.convert;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Text rendering shared by the converter and the unifier: UTF-8 encoding, JSON string escaping, the
 * float format and strict UTF-8 validation.
 *
 * <h2>Float format</h2>
 * The original wrote nested values with {@code orjson.dumps}, and orjson formats floats with the Rust
 * {@code ryu} crate's "pretty" shortest representation. We reproduce that format exactly (not Python's
 * {@code repr}, which differs only in exponent spelling):
 * <ul>
 *   <li>the digits are the shortest that round-trip (Schubfach via jackson-core's
 *       {@code DoubleToDecimal}, which is correct on JDK 17 where {@code Double.toString} is not always
 *       shortest);</li>
 *   <li>with decimal exponent {@code kk} ({@code 10^(kk-1) <= |v| < 10^kk}): {@code -5 < kk <= 16} is
 *       written positionally, always with a fraction ({@code 1.0}, {@code 1000000000000000.0},
 *       {@code 0.0001}, {@code 0.00001}); otherwise scientific with a lower-case {@code e}, no {@code +}
 *       and no zero padding ({@code 1e16}, {@code 1e20}, {@code 1.5e-7}, {@code 1e-6},
 *       {@code 1.2345678901234568e17});</li>
 *   <li>{@code 0.0} and {@code -0.0} keep their sign.</li>
 * </ul>
 * Python's {@code repr} would write {@code 1e+20}, {@code 1.5e-07} and {@code 1e-05} for the last three
 * cases. The same format is used for every double that becomes text (nested JSON, mixed VARCHAR columns,
 * and DOUBLE batches re-rendered by {@link BatchUnifier}), so a value reads the same wherever it lands.
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

    // ---------------------------------------------------------------- floats

    /** The orjson/ryu shortest text of a finite double. */
    static String formatDouble(double v) {
        ByteBuf b = new ByteBuf(32);
        appendDouble(v, b);
        return b.toUtf8String(0, b.length);
    }

    /** Appends the orjson/ryu shortest text of {@code v}; non-finite values are written as {@code null}, as orjson does. */
    static void appendDouble(double v, ByteBuf out) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            out.put(NULL);
            return;
        }
        if (v == 0.0) {
            if (Double.doubleToRawLongBits(v) != 0) {
                out.put((byte) '-');
            }
            out.put((byte) '0');
            out.put((byte) '.');
            out.put((byte) '0');
            return;
        }
        // Java-style shortest text: "[-]ddd.ddd" or "[-]d.dddE[-]n".
        String s = DoubleToDecimal.toString(v);
        int len = s.length();
        byte[] digits = new byte[24];
        int nd = 0;
        int pointPos = -1;
        int exp = 0;
        int i = 0;
        boolean negative = false;
        if (s.charAt(0) == '-') {
            negative = true;
            i = 1;
        }
        for (; i < len; i++) {
            char c = s.charAt(i);
            if (c == '.') {
                pointPos = nd;
            } else if (c == 'E') {
                exp = Integer.parseInt(s, i + 1, len, 10);
                break;
            } else {
                digits[nd++] = (byte) c;
            }
        }
        if (pointPos < 0) {
            pointPos = nd;
        }
        int start = 0;
        while (start < nd - 1 && digits[start] == '0') {
            start++;
            pointPos--;
        }
        int end = nd;
        while (end > start + 1 && digits[end - 1] == '0') {
            end--;
        }
        int length = end - start;
        int kk = pointPos + exp; // value = 0.DIGITS x 10^kk
        if (length == 2 && Math.abs(v) < Double.MIN_NORMAL) {
            // Java's spec picks the closest 2-digit decimal when 1 digit would do (4.9E-324); ryu prints the
            // shortest (5e-324). That only differs for subnormals: try the two 1-digit neighbours.
            int d1 = digits[start] - '0';
            int lo = d1;
            int hi = d1 + 1;
            boolean hiFirst = digits[start + 1] >= '5';
            int[] order = hiFirst ? new int[] {hi, lo} : new int[] {lo, hi};
            for (int cand : order) {
                if (cand == 0) {
                    continue;
                }
                int candKk = kk;
                int digit = cand;
                if (cand == 10) {
                    digit = 1;
                    candKk = kk + 1;
                }
                if (Double.parseDouble((negative ? "-" : "") + digit + "e" + (candKk - 1)) == v) {
                    digits[start] = (byte) ('0' + digit);
                    length = 1;
                    kk = candKk;
                    break;
                }
            }
        }
        int k = kk - length; // value = DIGITS x 10^k
        out.ensure(32);
        if (negative) {
            out.put((byte) '-');
        }
        if (k >= 0 && kk <= 16) {
            out.put(digits, start, length);
            for (int z = length; z < kk; z++) {
                out.put((byte) '0');
            }
            out.put((byte) '.');
            out.put((byte) '0');
        } else if (kk > 0 && kk <= 16) {
            out.put(digits, start, kk);
            out.put((byte) '.');
            out.put(digits, start + kk, length - kk);
        } else if (kk > -5 && kk <= 0) {
            out.put((byte) '0');
            out.put((byte) '.');
            for (int z = kk; z < 0; z++) {
                out.put((byte) '0');
            }
            out.put(digits, start, length);
        } else {
            out.put(digits[start]);
            if (length > 1) {
                out.put((byte) '.');
                out.put(digits, start + 1, length - 1);
            }
            out.put((byte) 'e');
            out.putLong(kk - 1);
        }
    }

    /**
     * Whether a JSON float literal is already exactly what {@link #appendDouble} writes for its value, so it can be
     * copied instead of parsed and re-rendered (most floats in real payloads are). True only for plain decimal
     * notation ({@code [-]int.frac}, no exponent) with at most 15 significant digits — any such decimal is the
     * shortest text of the double it parses to, as a double holds 15 decimal digits exactly — no redundant zeros,
     * and a magnitude {@link #appendDouble} writes without an exponent (at most 16 integer digits; at most four zeros
     * right after the point of {@code 0.}).
     */
    static boolean isShortestDecimal(char[] c, int off, int len) {
        int i = off;
        int end = off + len;
        if (i < end && c[i] == '-') {
            i++;
        }
        int intStart = i;
        while (i < end && c[i] >= '0' && c[i] <= '9') {
            i++;
        }
        int intLen = i - intStart;
        if (intLen == 0 || intLen > 16 || (intLen > 1 && c[intStart] == '0') || i >= end || c[i] != '.') {
            return false;
        }
        int fracStart = ++i;
        while (i < end && c[i] >= '0' && c[i] <= '9') {
            i++;
        }
        int fracLen = i - fracStart;
        if (i != end || fracLen == 0) {
            return false; // an exponent, or nothing after the point
        }
        boolean intIsZero = c[intStart] == '0';
        if (fracLen == 1 && c[fracStart] == '0') {
            // "N.0": integer-valued; its significant digits are N's without trailing zeros ("0.0" is zero itself).
            int sig = intLen;
            while (sig > 1 && c[intStart + sig - 1] == '0') {
                sig--;
            }
            return sig <= 15;
        }
        if (c[end - 1] == '0') {
            return false; // a redundant trailing zero: "1.50"
        }
        if (!intIsZero) {
            return intLen + fracLen <= 15;
        }
        int zeros = 0;
        while (c[fracStart + zeros] == '0') {
            zeros++;
        }
        return zeros <= 4 && fracLen - zeros <= 15;
    }

    // ---------------------------------------------------------------- strings

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

    // ---------------------------------------------------------------- UTF-8 validation

    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long ONES = 0x0101010101010101L;

    /** Eight bytes of {@code b} from {@code i}, little-endian. */
    static long readLong(byte[] b, int i) {
        return (long) LONGS.get(b, i);
    }

    /**
     * The index of the first {@code "}, backslash or ASCII control character in {@code b[i..n)}, or {@code n}: the
     * end of a JSON string's plain run. Eight bytes at a time; in each test below the lowest flagged byte is exact
     * (a borrow only carries out of a byte that is itself a match), which is all the search needs.
     */
    static int plainRunEnd(byte[] b, int i, int n) {
        while (i + 8 <= n) {
            long x = (long) LONGS.get(b, i);
            long q = x ^ 0x2222222222222222L; // '"' becomes 0
            long s = x ^ 0x5C5C5C5C5C5C5C5CL; // '\\' becomes 0
            long m = ((q - ONES) & ~q) | ((s - ONES) & ~s) | ((x - 0x2020202020202020L) & ~x);
            m &= HIGH_BITS;
            if (m != 0) {
                return i + (Long.numberOfTrailingZeros(m) >>> 3);
            }
            i += 8;
        }
        while (i < n) {
            byte c = b[i];
            if (c == '"' || c == '\\' || (c >= 0 && c < 0x20)) {
                return i;
            }
            i++;
        }
        return n;
    }

    /**
     * True if {@code b} is strictly valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
     * U+10FFFF) and has no NUL byte among its first four bytes. Jackson guesses UTF-16/UTF-32 from NULs there,
     * so refusing them pins the input to UTF-8; a NUL anywhere else is rejected by the JSON parser itself
     * (it is neither whitespace nor allowed unescaped inside a string).
     */
    static boolean isStrictUtf8WithoutNul(byte[] b) {
        int n = b.length;
        for (int i = 0; i < Math.min(4, n); i++) {
            if (b[i] == 0) {
                return false;
            }
        }
        int i = 0;
        while (i < n) {
            // 16 ASCII bytes at a time.
            while (i + 16 <= n) {
                long w = (long) LONGS.get(b, i) | (long) LONGS.get(b, i + 8);
                if ((w & HIGH_BITS) != 0) {
                    break;
                }
                i += 16;
            }
            if (i >= n) {
                return true;
            }
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            if (c < 0xC2) {
                return false; // continuation byte or overlong 2-byte lead
            }
            if (c < 0xE0) {
                if (i + 1 >= n || (b[i + 1] & 0xC0) != 0x80) {
                    return false;
                }
                i += 2;
                continue;
            }
            if (c < 0xF0) {
                if (i + 2 >= n) {
                    return false;
                }
                int c1 = b[i + 1] & 0xFF;
                if ((c1 & 0xC0) != 0x80 || (b[i + 2] & 0xC0) != 0x80) {
                    return false;
                }
                if (c == 0xE0 && c1 < 0xA0) {
                    return false; // overlong
                }
                if (c == 0xED && c1 >= 0xA0) {
                    return false; // surrogate
                }
                i += 3;
                continue;
            }
            if (c < 0xF5) {
                if (i + 3 >= n) {
                    return false;
                }
                int c1 = b[i + 1] & 0xFF;
                if ((c1 & 0xC0) != 0x80 || (b[i + 2] & 0xC0) != 0x80 || (b[i + 3] & 0xC0) != 0x80) {
                    return false;
                }
                if (c == 0xF0 && c1 < 0x90) {
                    return false; // overlong
                }
                if (c == 0xF4 && c1 >= 0x90) {
                    return false; // above U+10FFFF
                }
                i += 4;
                continue;
            }
            return false;
        }
        return true;
    }
}
