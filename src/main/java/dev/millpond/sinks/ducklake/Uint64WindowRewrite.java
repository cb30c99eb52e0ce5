package dev.millpond.sinks.ducklake;

import java.io.ByteArrayOutputStream;

/**
 * The VARIANT companion's one data hazard: an integer in (INT64_MAX, UINT64_MAX] casts into a valid VARIANT (a
 * UINT64) and reads back fine, but DuckDB's parquet writer cannot shred it and fails the whole INSERT — or, when the
 * flush is small enough to be inlined into the catalog, commits it and fails every later flush of the inlined data.
 * Such integers are rewritten as JSON strings in the text the companion is cast from; the source column keeps its
 * bytes. Integers at or below INT64_MAX, negatives and integers above UINT64_MAX (DuckDB makes those a DOUBLE) shred
 * fine and are left alone.
 *
 * <p>Two stages, so the common row costs one byte loop: {@link #mayHold} looks for a run of digits that could be in
 * the window (19 digits starting with 9, or 20 starting with 1); only rows it flags are tokenised by
 * {@link #rewrite}. The tokeniser is lexical (strings with their escapes, numbers, everything else skipped), which is
 * exact for valid JSON; for text DuckDB does not accept as JSON the caller keeps the companion NULL whatever the
 * rewrite produced, since quoting a number can make broken text parse.
 */
final class Uint64WindowRewrite {

    private static final byte[] INT64_MAX = "9223372036854775807".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] UINT64_MAX = "18446744073709551615".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * Nesting deeper than this gets a NULL companion: DuckDB 1.5.5 writes a deeper VARIANT but then fails every read
     * of it with an internal error (which also invalidates the reader's database), and shredding it is very slow.
     */
    static final int MAX_DEPTH = 128;
    static final byte[] NULL_COMPANION = "null".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private Uint64WindowRewrite() {
    }

    /**
     * Whether {@code [start, end)} has a maximal digit run that could be an integer of the window, or brackets that
     * could nest deeper than {@link #MAX_DEPTH} (counted without regard to strings, so an overestimate).
     */
    static boolean mayHold(byte[] b, int start, int end) {
        int run = 0;
        int depth = 0;
        for (int i = start; i < end; i++) {
            byte c = b[i];
            if (c >= '0' && c <= '9') {
                run++;
                continue;
            }
            if (candidateRun(b, i - run, run)) {
                return true;
            }
            run = 0;
            if (c == '[' || c == '{') {
                if (++depth > MAX_DEPTH) {
                    return true;
                }
            } else if (c == ']' || c == '}') {
                depth--;
            }
        }
        return candidateRun(b, end - run, run);
    }

    private static boolean candidateRun(byte[] b, int from, int length) {
        return (length == 19 && b[from] == '9') || (length == 20 && b[from] == '1');
    }

    /**
     * {@code [start, end)} with every integer token of the window outside strings wrapped in quotes, or null when
     * there is none; {@link #NULL_COMPANION} when the value nests deeper than {@link #MAX_DEPTH}.
     */
    static byte[] rewrite(byte[] b, int start, int end) {
        ByteArrayOutputStream out = null;
        int copied = start;
        int i = start;
        int depth = 0;
        while (i < end) {
            byte c = b[i];
            if (c == '[' || c == '{') {
                if (++depth > MAX_DEPTH) {
                    return NULL_COMPANION;
                }
                i++;
            } else if (c == ']' || c == '}') {
                depth--;
                i++;
            } else if (c == '"') {
                i = afterString(b, i + 1, end);
            } else if (c == '-' || (c >= '0' && c <= '9')) {
                int tokenEnd = i;
                boolean plainDigits = true;
                while (tokenEnd < end && isNumberByte(b[tokenEnd])) {
                    plainDigits &= b[tokenEnd] >= '0' && b[tokenEnd] <= '9';
                    tokenEnd++;
                }
                if (plainDigits && inWindow(b, i, tokenEnd - i)) {
                    if (out == null) {
                        out = new ByteArrayOutputStream(end - start + 8);
                    }
                    out.write(b, copied, i - copied);
                    out.write('"');
                    out.write(b, i, tokenEnd - i);
                    out.write('"');
                    copied = tokenEnd;
                }
                i = tokenEnd;
            } else {
                i++;
            }
        }
        if (out == null) {
            return null;
        }
        out.write(b, copied, end - copied);
        return out.toByteArray();
    }

    /** The index after the closing quote of a string whose body starts at {@code i}, or {@code end}. */
    private static int afterString(byte[] b, int i, int end) {
        while (i < end) {
            byte c = b[i];
            if (c == '\\') {
                i += 2;
            } else if (c == '"') {
                return i + 1;
            } else {
                i++;
            }
        }
        return end;
    }

    private static boolean isNumberByte(byte c) {
        return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
    }

    /** Digits only: same length compares as text. */
    private static boolean inWindow(byte[] b, int from, int length) {
        if (length == 19) {
            return b[from] == '9' && compare(b, from, INT64_MAX) > 0;
        }
        return length == 20 && b[from] == '1' && compare(b, from, UINT64_MAX) <= 0;
    }

    private static int compare(byte[] b, int from, byte[] bound) {
        for (int k = 0; k < bound.length; k++) {
            int d = b[from + k] - bound[k];
            if (d != 0) {
                return d;
            }
        }
        return 0;
    }
}
