package dev.millpond.convert;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The byte-level pieces of JSON's grammar that both fast readers ({@link DirectRecordReader} for a record's top level,
 * {@link CanonicalNestedCopy} for nested values) scan: whitespace, literals, the number grammar and the plain run of
 * a string. Each answers the
 * end of what it recognised, or -1 when the bytes are not valid JSON there (the caller then falls back to Jackson).
 */
final class JsonSyntax {

    private JsonSyntax() {
    }

    /** The end of an integer part starting at {@code i} (after any minus sign): {@code 0} or {@code [1-9][0-9]*}. */
    static int integerPartEnd(byte[] b, int i, int n) {
        if (i >= n) {
            return -1;
        }
        if (b[i] == '0') {
            return i + 1;
        }
        if (b[i] >= '1' && b[i] <= '9') {
            return digits(b, i + 1);
        }
        return -1;
    }

    /**
     * The end of the optional fraction and exponent after an integer part ending at {@code i}; equal to {@code i}
     * when there are none (an integer). A digit right after them means a leading zero ({@code 01}): -1.
     */
    static int fractionAndExponentEnd(byte[] b, int i, int n) {
        if (i < n && b[i] == '.') {
            int d = digits(b, i + 1);
            if (d == i + 1) {
                return -1;
            }
            i = d;
        }
        if (i < n && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < n && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int d = digits(b, i);
            if (d == i) {
                return -1;
            }
            i = d;
        }
        if (i < n && b[i] >= '0' && b[i] <= '9') {
            return -1;
        }
        return i;
    }

    static int digits(byte[] b, int i) {
        while (i < b.length && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        return i;
    }

    /** The end of {@code word} (e.g. {@code true}) at {@code i}, or -1 when the bytes there differ. */
    static int literal(byte[] b, int i, byte[] word) {
        int len = word.length;
        if (i + len > b.length || !Arrays.equals(b, i, i + len, word, 0, len)) {
            return -1;
        }
        return i + len;
    }

    static int skipWhitespace(byte[] b, int i) {
        while (i < b.length && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
            i++;
        }
        return i;
    }

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
}
