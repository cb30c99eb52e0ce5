package dev.millpond.vocabulary;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;

/**
 * The text millpond writes for a double wherever a number becomes a string: nested JSON, mixed VARCHAR columns, DOUBLE
 * batches re-rendered by the unifier, a DOUBLE cast to text by a stage or a sink, so a value reads the same wherever
 * it lands.
 *
 * <p>The original wrote nested values with {@code orjson.dumps}, and orjson formats floats with the Rust
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
 * cases.
 */
public final class DoubleText {
    private DoubleText() {
    }

    /** The most bytes {@link #write} writes for one value. */
    public static final int MAX_LENGTH = 32;

    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    /** {@code 1.0}, {@code 1e20}, {@code 1.5e-7}: the orjson/ryu shortest text of a finite double. */
    public static String of(double v) {
        byte[] b = new byte[MAX_LENGTH];
        return new String(b, 0, write(v, b, 0), java.nio.charset.StandardCharsets.US_ASCII);
    }

    /**
     * Writes the orjson/ryu shortest text of {@code v} into {@code out} from {@code at}, which must leave
     * {@link #MAX_LENGTH} bytes of room, and returns the position after it; non-finite values are written as
     * {@code null}, as orjson does. An array and a position rather than a buffer type, so the converter's hot path
     * writes straight into its own bytes.
     */
    public static int write(double v, byte[] out, int at) {
        int p = at;
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            System.arraycopy(NULL, 0, out, p, NULL.length);
            return p + NULL.length;
        }
        if (v == 0.0) {
            if (Double.doubleToRawLongBits(v) != 0) {
                out[p++] = '-';
            }
            out[p++] = '0';
            out[p++] = '.';
            out[p++] = '0';
            return p;
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
        if (negative) {
            out[p++] = '-';
        }
        if (k >= 0 && kk <= 16) {
            System.arraycopy(digits, start, out, p, length);
            p += length;
            for (int z = length; z < kk; z++) {
                out[p++] = '0';
            }
            out[p++] = '.';
            out[p++] = '0';
        } else if (kk > 0 && kk <= 16) {
            System.arraycopy(digits, start, out, p, kk);
            p += kk;
            out[p++] = '.';
            System.arraycopy(digits, start + kk, out, p, length - kk);
            p += length - kk;
        } else if (kk > -5 && kk <= 0) {
            out[p++] = '0';
            out[p++] = '.';
            for (int z = kk; z < 0; z++) {
                out[p++] = '0';
            }
            System.arraycopy(digits, start, out, p, length);
            p += length;
        } else {
            out[p++] = digits[start];
            if (length > 1) {
                out[p++] = '.';
                System.arraycopy(digits, start + 1, out, p, length - 1);
                p += length - 1;
            }
            out[p++] = 'e';
            int e = kk - 1; // |e| <= 324
            if (e < 0) {
                out[p++] = '-';
                e = -e;
            }
            if (e >= 100) {
                out[p++] = (byte) ('0' + e / 100);
            }
            if (e >= 10) {
                out[p++] = (byte) ('0' + e / 10 % 10);
            }
            out[p++] = (byte) ('0' + e % 10);
        }
        return p;
    }

    /**
     * Whether a JSON float literal is already exactly what {@link #write} writes for its value, so it can be
     * copied instead of parsed and re-rendered (most floats in real payloads are). True only for plain decimal
     * notation ({@code [-]int.frac}, no exponent) with at most 15 significant digits — any such decimal is the
     * shortest text of the double it parses to, as a double holds 15 decimal digits exactly — no redundant zeros,
     * and a magnitude {@link #write} writes without an exponent (at most 16 integer digits; at most four zeros
     * right after the point of {@code 0.}).
     */
    public static boolean isShortestDecimal(char[] c, int off, int len) {
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
}
