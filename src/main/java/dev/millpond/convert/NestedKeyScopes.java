package dev.millpond.convert;

import java.util.Arrays;
import java.util.HashSet;

/**
 * The keys of the nested objects currently open while one nested value is written, to spot a repeated key (orjson
 * keeps the last value at the first key's position, which the streaming writer cannot do, so the record is then
 * re-read on the slow path). Small objects are checked with a 64-bit filter of key hashes and a linear scan; objects
 * of more than 64 keys switch to a hash set. Reused across values and records; not thread-safe.
 */
final class NestedKeyScopes {
    private static final int LINEAR_SCAN_LIMIT = 64;

    // scopeStart[d] indexes keyStack: the first key of the object open at depth d.
    private String[] keyStack = new String[64];
    private int keyTop;
    private int[] scopeStart = new int[16];
    private long[] scopeMask = new long[16];
    private HashSet<String>[] scopeSets = newSetArray(16);

    @SuppressWarnings("unchecked")
    private static HashSet<String>[] newSetArray(int n) {
        return (HashSet<String>[]) new HashSet<?>[n];
    }

    /** An object or array opens at {@code depth} (0 for the value itself). */
    void open(int depth) {
        if (depth == scopeStart.length) {
            scopeStart = Arrays.copyOf(scopeStart, depth * 2);
            scopeMask = Arrays.copyOf(scopeMask, depth * 2);
            scopeSets = Arrays.copyOf(scopeSets, depth * 2);
        }
        if (depth == 0) {
            keyTop = 0;
        }
        scopeStart[depth] = keyTop;
        scopeMask[depth] = 0;
        HashSet<String> set = scopeSets[depth];
        if (set != null && !set.isEmpty()) {
            set.clear(); // left over from a larger object (or an aborted record) at this depth
        }
    }

    /** The object or array open at {@code depth} closes. */
    void close(int depth) {
        keyTop = scopeStart[depth];
    }

    /**
     * A key of the object open at {@code depth}.
     *
     * @throws DuplicateNestedKey when that object already has it
     */
    void add(int depth, String name) {
        int start = scopeStart[depth];
        int count = keyTop - start;
        if (count < LINEAR_SCAN_LIMIT) {
            int h = name.hashCode();
            long bit = 1L << ((h ^ (h >>> 6) ^ (h >>> 12) ^ (h >>> 18)) & 63);
            if ((scopeMask[depth] & bit) != 0) {
                for (int i = start; i < keyTop; i++) {
                    String k = keyStack[i];
                    if (k == name || (k.hashCode() == h && k.equals(name))) {
                        throw DuplicateNestedKey.INSTANCE;
                    }
                }
            }
            scopeMask[depth] |= bit;
        } else {
            HashSet<String> set = scopeSets[depth];
            if (set == null) {
                set = scopeSets[depth] = new HashSet<>();
            }
            if (set.isEmpty()) {
                for (int i = start; i < keyTop; i++) {
                    set.add(keyStack[i]);
                }
            }
            if (!set.add(name)) {
                throw DuplicateNestedKey.INSTANCE;
            }
        }
        if (keyTop == keyStack.length) {
            keyStack = Arrays.copyOf(keyStack, keyTop * 2);
        }
        keyStack[keyTop++] = name;
    }

    /** A repeated key inside a nested object; the record is then parsed again on the slow path. */
    static final class DuplicateNestedKey extends RuntimeException {
        static final DuplicateNestedKey INSTANCE = new DuplicateNestedKey();

        private DuplicateNestedKey() {
            super("duplicate key in nested object", null, false, false);
        }
    }
}
