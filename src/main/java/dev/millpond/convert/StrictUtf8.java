package dev.millpond.convert;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Strict UTF-8 validation of a record's bytes before any parser sees them. */
final class StrictUtf8 {
    private StrictUtf8() {
    }

    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

    /**
     * True if {@code b} is strictly valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
     * U+10FFFF) and has no NUL byte among its first four bytes. Jackson guesses UTF-16/UTF-32 from NULs there,
     * so refusing them pins the input to UTF-8; a NUL anywhere else is rejected by the JSON parser itself
     * (it is neither whitespace nor allowed unescaped inside a string).
     */
    static boolean isValidWithoutLeadingNul(byte[] b) {
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
