package dev.millpond.convert;

import dev.millpond.vocabulary.DoubleText;
import com.fasterxml.jackson.core.io.NumberInput;
import java.util.Arrays;

/**
 * Copies a nested object or array from the record's bytes straight into the output when the bytes already are what
 * {@link NestedJsonWriter} would write for it, dropping insignificant whitespace and re-rendering float literals that
 * are not in shortest form on the way; anything else (an escape the writer would spell differently, a repeated key,
 * a value that is not valid JSON, very deep nesting or very large objects) makes it give up so that the caller
 * re-serialises the value from Jackson's tokens as before.
 *
 * <p>Hand-written because no JSON library offers "validate this span and tell me whether it is already in this
 * particular compact form": Jackson (and the others) only expose tokens, and rebuilding the text from tokens is the
 * cost this class exists to avoid. It accepts only a subset of valid JSON, so it never has to agree with the parser on
 * what is an error: whatever it refuses goes through the parser-driven writer, which reports errors as before.
 *
 * <p>What the writer produces for each token, and so what is copied as is:
 * <ul>
 *   <li>strings and keys: raw UTF-8 (the whole record was validated as strict UTF-8 before parsing), with only
 *       {@code \" \\ \b \t \n \f \r} and lower-case {@code \\u00XX} for the other control characters escaped;</li>
 *   <li>integers: their exact source text (JSON integer syntax is canonical already);</li>
 *   <li>floats: copied when {@link DoubleText#isShortestDecimal}, else parsed the way Jackson parses them and written
 *       with {@link DoubleText#write} (an overflowing literal keeps its source text);</li>
 *   <li>{@code true}, {@code false}, {@code null}; no whitespace; every key once per object (a repeated key is merged
 *       by the writer's slow path, so its text differs from the source).</li>
 * </ul>
 * Reused across values and records; not thread-safe.
 */
final class CanonicalNestedCopy {
    /** Keys per object checked against a 64-bit filter and a scan; a larger object gets a hash index of its keys. */
    private static final int LINEAR_KEYS = 64;
    /**
     * Longest probe sequence accepted in a hash index; keys crafted to collide make the value fall back to the writer
     * (whose hash set copes with collisions) instead of costing quadratic time here.
     */
    private static final int MAX_PROBES = 32;
    /** Key arrays and indexes up to this many entries are kept for the next value; larger ones are dropped after use. */
    private static final int KEEP_KEYS = 1 << 14;
    private boolean grewLarge;
    /** Float literals longer than this are left to the writer (they are never shortest form anyway). */
    private static final int MAX_FLOAT_LITERAL = 64;

    private final int maxDepth;
    private final int maxNameLength;
    private final int maxNumberLength;

    // Open containers: isObject[d], and for objects the first key's index in the key stack plus a 64-bit key filter.
    private boolean[] isObject = new boolean[16];
    private int[] scopeStart = new int[16];
    private long[] scopeMask = new long[16];
    // Keys of the open objects, as spans of the source bytes with their hashes.
    private int[] keyStart = new int[64];
    private int[] keyLen = new int[64];
    private int[] keyHash = new int[64];
    private int keyTop;
    // Per depth, for objects of more than LINEAR_KEYS keys: open addressing over key indexes + 1 (0 = empty slot).
    private int[][] keyIndex = new int[16][];
    private final char[] literal = new char[MAX_FLOAT_LITERAL];

    /**
     * The parser's own limits: a value beyond one of them is left to the parser, which refuses it.
     *
     * @param maxDepth deepest nesting
     * @param maxNameLength longest key (in bytes here, which is never less than in chars)
     * @param maxNumberLength longest number literal
     */
    CanonicalNestedCopy(int maxDepth, int maxNameLength, int maxNumberLength) {
        this.maxDepth = maxDepth;
        this.maxNameLength = maxNameLength;
        this.maxNumberLength = maxNumberLength;
    }

    /**
     * Appends the compact text of the object or array starting at {@code b[start]} to {@code out}.
     *
     * @param b a record already validated as strict UTF-8
     * @return the index just past the value, or -1 when the value must be re-serialised ({@code out} is then as it
     *     was)
     */
    int copy(byte[] b, int start, ByteBuf out) {
        int mark = out.length;
        int end = scan(b, start, out);
        if (end < 0) {
            out.length = mark;
        }
        if (grewLarge) {
            shrink();
        }
        return end;
    }

    /** After a value with a huge object: let go of the key arrays and indexes it grew, so one record does not pin them. */
    private void shrink() {
        grewLarge = false;
        if (keyStart.length > KEEP_KEYS) {
            keyStart = new int[64];
            keyLen = new int[64];
            keyHash = new int[64];
        }
        for (int d = 0; d < keyIndex.length; d++) {
            if (keyIndex[d] != null && keyIndex[d].length > KEEP_KEYS) {
                keyIndex[d] = null;
            }
        }
    }

    private int scan(byte[] b, int i, ByteBuf out) {
        final int n = b.length;
        int depth = 0;
        keyTop = 0;
        int run = i; // start of the source bytes not yet copied to out
        // Each turn of the loop reads one value at b[i] (i is at its first byte, whitespace skipped).
        while (true) {
            if (i >= n) {
                return -1;
            }
            int c = b[i];
            boolean closed; // the value just read is complete (a scalar, or an empty container closed at once)
            if (c == '{' || c == '[') {
                if (depth == maxDepth) {
                    return -1;
                }
                open(depth, c == '{');
                depth++;
                i++;
                if (i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
                    out.put(b, run, i - run);
                    i = JsonSyntax.skipWhitespace(b, i);
                    run = i;
                }
                if (i >= n) {
                    return -1;
                }
                if (b[i] == (c == '{' ? '}' : ']')) {
                    i++;
                    depth--;
                    closed = true;
                } else if (c == '{') {
                    i = key(b, i, depth - 1);
                    if (i < 0) {
                        return -1;
                    }
                    // ws ':' ws
                    if (i < n && b[i] != ':') {
                        out.put(b, run, i - run);
                        i = JsonSyntax.skipWhitespace(b, i);
                        run = i;
                    }
                    if (i >= n || b[i] != ':') {
                        return -1;
                    }
                    i++;
                    if (i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
                        out.put(b, run, i - run);
                        i = JsonSyntax.skipWhitespace(b, i);
                        run = i;
                    }
                    continue;
                } else {
                    continue;
                }
            } else if (c == '"') {
                i = string(b, i);
                if (i < 0) {
                    return -1;
                }
                closed = true;
            } else if (c == '-' || (c >= '0' && c <= '9')) {
                int numStart = i;
                if (c == '-') {
                    i++;
                }
                int intEnd = JsonSyntax.integerPartEnd(b, i, n);
                if (intEnd < 0) {
                    return -1;
                }
                i = JsonSyntax.fractionAndExponentEnd(b, intEnd, n);
                if (i < 0) {
                    return -1;
                }
                boolean isFloat = i != intEnd;
                if (i - numStart > maxNumberLength) {
                    return -1;
                }
                if (isFloat) {
                    int len = i - numStart;
                    if (len > MAX_FLOAT_LITERAL) {
                        return -1;
                    }
                    for (int k = 0; k < len; k++) {
                        literal[k] = (char) b[numStart + k];
                    }
                    if (!DoubleText.isShortestDecimal(literal, 0, len)) {
                        out.put(b, run, numStart - run);
                        double v = NumberInput.parseDouble(literal, 0, len, true);
                        if (Double.isInfinite(v)) {
                            out.put(b, numStart, len); // overflowing literal: the writer keeps its source text
                        } else {
                            out.putDouble(v);
                        }
                        run = i;
                    }
                }
                closed = true;
            } else if (c == 't') {
                i = JsonSyntax.literal(b, i, JsonText.TRUE);
                closed = true;
            } else if (c == 'f') {
                i = JsonSyntax.literal(b, i, JsonText.FALSE);
                closed = true;
            } else if (c == 'n') {
                i = JsonSyntax.literal(b, i, JsonText.NULL);
                closed = true;
            } else {
                return -1;
            }
            if (i < 0) {
                return -1;
            }
            // After a complete value: ',' and the next value or key, or closing brackets.
            while (closed) {
                if (depth == 0) {
                    out.put(b, run, i - run);
                    return i;
                }
                if (i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
                    out.put(b, run, i - run);
                    i = JsonSyntax.skipWhitespace(b, i);
                    run = i;
                }
                if (i >= n) {
                    return -1;
                }
                int d = b[i];
                boolean object = isObject[depth - 1];
                if (d == ',') {
                    i++;
                    if (i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
                        out.put(b, run, i - run);
                        i = JsonSyntax.skipWhitespace(b, i);
                        run = i;
                    }
                    if (object) {
                        i = key(b, i, depth - 1);
                        if (i < 0) {
                            return -1;
                        }
                        if (i < n && b[i] != ':') {
                            out.put(b, run, i - run);
                            i = JsonSyntax.skipWhitespace(b, i);
                            run = i;
                        }
                        if (i >= n || b[i] != ':') {
                            return -1;
                        }
                        i++;
                        if (i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
                            out.put(b, run, i - run);
                            i = JsonSyntax.skipWhitespace(b, i);
                            run = i;
                        }
                    }
                    closed = false;
                } else if (d == (object ? '}' : ']')) {
                    i++;
                    depth--;
                    if (object) {
                        keyTop = scopeStart[depth];
                    }
                } else {
                    return -1;
                }
            }
        }
    }

    private void open(int depth, boolean object) {
        if (depth == isObject.length) {
            isObject = Arrays.copyOf(isObject, depth * 2);
            scopeStart = Arrays.copyOf(scopeStart, depth * 2);
            scopeMask = Arrays.copyOf(scopeMask, depth * 2);
            keyIndex = Arrays.copyOf(keyIndex, depth * 2);
        }
        isObject[depth] = object;
        scopeStart[depth] = keyTop;
        scopeMask[depth] = 0;
    }

    /** Reads a key of the object open at {@code depth} at {@code b[i]}; returns the index past it, or -1. */
    private int key(byte[] b, int i, int depth) {
        if (i >= b.length || b[i] != '"') {
            return -1;
        }
        int end = string(b, i);
        if (end < 0) {
            return -1;
        }
        int start = i + 1;
        int len = end - 1 - start;
        if (len > maxNameLength) {
            return -1;
        }
        int h = keyHash(b, start, len);
        int first = scopeStart[depth];
        int count = keyTop - first;
        long bit = 1L << ((h ^ (h >>> 6) ^ (h >>> 12) ^ (h >>> 18)) & 63);
        if (count >= LINEAR_KEYS) {
            if (!addIndexed(b, depth, first, count, h, start, len)) {
                return -1;
            }
        } else if ((scopeMask[depth] & bit) != 0) {
            // Canonical spelling is one-to-one, so equal keys have equal bytes.
            for (int k = first; k < keyTop; k++) {
                if (sameKey(b, k, h, start, len)) {
                    return -1;
                }
            }
        }
        scopeMask[depth] |= bit;
        if (keyTop == keyStart.length) {
            grewLarge |= keyTop * 2 > KEEP_KEYS;
            keyStart = Arrays.copyOf(keyStart, keyTop * 2);
            keyLen = Arrays.copyOf(keyLen, keyTop * 2);
            keyHash = Arrays.copyOf(keyHash, keyTop * 2);
        }
        keyStart[keyTop] = start;
        keyLen[keyTop] = len;
        keyHash[keyTop] = h;
        keyTop++;
        return end;
    }

    private boolean sameKey(byte[] b, int k, int h, int start, int len) {
        return keyHash[k] == h && keyLen[k] == len
                && Arrays.equals(b, keyStart[k], keyStart[k] + len, b, start, start + len);
    }

    /**
     * Checks a key of a wide object against its hash index, (re)building the index when the object reaches the
     * linear limit (so an index left by an earlier object at this depth is never read) or outgrows it; false when the key is already there (or the keys collide too much). The key itself
     * is added by the caller at index {@code keyTop}.
     */
    private boolean addIndexed(byte[] b, int depth, int first, int count, int h, int start, int len) {
        int[] table = keyIndex[depth];
        if (count == LINEAR_KEYS || table == null || (count + 1) * 2 > table.length) {
            int size = Integer.highestOneBit(Math.max(256, count * 4) - 1) << 1;
            grewLarge |= size > KEEP_KEYS;
            if (table == null || table.length < size) {
                table = keyIndex[depth] = new int[size];
            } else {
                Arrays.fill(table, 0);
            }
            int mask = table.length - 1;
            for (int k = first; k < keyTop; k++) {
                int slot = keyHash[k] & mask;
                for (int probes = 0; table[slot] != 0; probes++) {
                    if (probes == MAX_PROBES) {
                        return false;
                    }
                    slot = (slot + 1) & mask;
                }
                table[slot] = k + 1;
            }
        }
        int mask = table.length - 1;
        int slot = h & mask;
        for (int probes = 0; table[slot] != 0; probes++) {
            if (probes == MAX_PROBES || sameKey(b, table[slot] - 1, h, start, len)) {
                return false;
            }
            slot = (slot + 1) & mask;
        }
        table[slot] = keyTop + 1;
        return true;
    }

    /** A cheap hash of a key's bytes (its length and up to 16 of its bytes); equal hashes are compared in full. */
    static int keyHash(byte[] b, int start, int len) {
        long w;
        if (len >= 8) {
            w = JsonSyntax.readLong(b, start) ^ Long.rotateLeft(JsonSyntax.readLong(b, start + len - 8), 29);
        } else {
            w = 0;
            for (int k = 0; k < len; k++) {
                w = (w << 8) | (b[start + k] & 0xFF);
            }
        }
        w *= 0x9E3779B97F4A7C15L;
        return (int) (w ^ (w >>> 32)) * 31 + len;
    }

    /**
     * Checks the string at {@code b[i]} (its opening quote) is spelled as the writer spells it; returns the index past
     * its closing quote, or -1.
     */
    private static int string(byte[] b, int i) {
        final int n = b.length;
        i++;
        while (i < n) {
            i = JsonSyntax.plainRunEnd(b, i, n);
            if (i >= n) {
                return -1;
            }
            int c = b[i];
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\') {
                if (i + 1 >= n) {
                    return -1;
                }
                int e = b[i + 1];
                if (e == '"' || e == '\\' || e == 'b' || e == 't' || e == 'n' || e == 'f' || e == 'r') {
                    i += 2;
                    continue;
                }
                // Only a control character without a short escape is written as \\u00XX (lower-case hex).
                if (e != 'u' || i + 5 >= n || b[i + 2] != '0' || b[i + 3] != '0') {
                    return -1;
                }
                int hi = b[i + 4];
                int lo = b[i + 5];
                int loValue = lo >= '0' && lo <= '9' ? lo - '0' : lo >= 'a' && lo <= 'f' ? lo - 'a' + 10 : -1;
                if ((hi != '0' && hi != '1') || loValue < 0) {
                    return -1;
                }
                int ch = (hi - '0') * 16 + loValue;
                if (ch == '\b' || ch == '\t' || ch == '\n' || ch == '\f' || ch == '\r') {
                    return -1;
                }
                i += 6;
                continue;
            }
            return -1; // an unescaped control character: not JSON
        }
        return -1;
    }
}
