package dev.millpond.sinks.ducklake;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;

import java.io.IOException;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * One streaming parse of a VARIANT companion's source text, before DuckDB sees it: which key paths the value takes
 * ({@link ShredPaths}, what its shredding would cost) and whether DuckDB 1.5.5 can write it faithfully at all.
 *
 * <p>Strict JSON, as the companion's definition asks (Jackson's strict reader: no trailing tokens, comments, NaN,
 * leading zeros). Besides the uint64 window ({@link Uint64WindowRewrite}), three shapes cannot be written as they are:
 * nesting deeper than {@link Uint64WindowRewrite#MAX_DEPTH}; an object with two keys that are equal or differ only in
 * case (DuckDB keeps one of them, or fails the whole INSERT, depending on where the row falls in the file); and an
 * empty key (written, then unreadable, or the INSERT fails). Each gets a NULL companion, counted under its reason,
 * rather than a companion that differs from its source or a flush that cannot be written (docs/variant.md).
 */
final class CompanionScan {

    /** What a source text means for its companion. */
    enum Outcome {
        /** Valid JSON DuckDB writes as it is (window integers aside, which the rewrite quotes). */
        SHREDDABLE(null),
        /** Not JSON: the companion is NULL, as the specification says; not counted. */
        NOT_JSON(null),
        TOO_DEEP("too_deep"),
        DUPLICATE_KEY("duplicate_key"),
        EMPTY_KEY("empty_key");

        /** The {@code reason} label of a companion nulled for this outcome; null when the NULL is the expected one. */
        final String reason;

        Outcome(String reason) {
            this.reason = reason;
        }
    }

    /** Receives a row's distinct path nodes. */
    interface Nodes {
        void add(int node);
    }

    private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final BigInteger UINT64_MAX = new BigInteger("18446744073709551615");
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            // Values are as large as Kafka delivers them; the depth bound is this scan's own.
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE).maxNumberLength(Integer.MAX_VALUE)
                    .maxNestingDepth(Uint64WindowRewrite.MAX_DEPTH + 2).build())
            .build();

    private final ShredPaths paths;
    /** Per node: the scan that last recorded it, so a row lists each node once. */
    private int[] recorded = new int[256];
    /** Per folded key node: the object instance that last held it, so a repeated key is seen without a set. */
    private int[] keyHolder = new int[256];
    private int scans;
    private int objects;
    private final int[] stackNode = new int[Uint64WindowRewrite.MAX_DEPTH + 1];
    private final int[] stackObject = new int[Uint64WindowRewrite.MAX_DEPTH + 1];
    /** Per open object: its folded keys, kept only once a key of it fell past the trie's bound. */
    @SuppressWarnings("unchecked")
    private final Set<String>[] overflowKeys = new Set[Uint64WindowRewrite.MAX_DEPTH + 1];
    private boolean windowInteger;

    CompanionScan(ShredPaths paths) {
        this.paths = paths;
    }

    /** Whether the last SHREDDABLE value held an integer of the uint64 window. */
    boolean windowInteger() {
        return windowInteger;
    }

    /**
     * Scans {@code b[from, from + length)} as the value of the companion rooted at {@code root}, passing each path
     * node it takes to {@code out} once (only for a SHREDDABLE value is the list complete).
     */
    Outcome scan(byte[] b, int from, int length, int root, Nodes out) {
        scans++;
        windowInteger = false;
        try (JsonParser p = FACTORY.createParser(b, from, length)) {
            return walk(p, root, out);
        } catch (IOException | RuntimeException e) {
            return Outcome.NOT_JSON;
        }
    }

    private Outcome walk(JsonParser p, int root, Nodes out) throws IOException {
        int top = -1;
        int node = root;
        for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
            switch (t) {
                case FIELD_NAME -> {
                    String key = p.currentName();
                    if (key.isEmpty()) {
                        return Outcome.EMPTY_KEY;
                    }
                    node = paths.child(stackNode[top], key);
                    if (repeated(node, key, top)) {
                        return Outcome.DUPLICATE_KEY;
                    }
                }
                case START_OBJECT, START_ARRAY -> {
                    if (top + 2 > Uint64WindowRewrite.MAX_DEPTH) {
                        return Outcome.TOO_DEEP;
                    }
                    record(node, out);
                    top++;
                    stackNode[top] = node;
                    stackObject[top] = t == JsonToken.START_OBJECT ? ++objects : 0;
                    overflowKeys[top] = null;
                    if (t == JsonToken.START_ARRAY) {
                        node = paths.element(node);
                    }
                }
                case END_OBJECT, END_ARRAY -> {
                    top--;
                    if (top < 0) {
                        return p.nextToken() == null ? Outcome.SHREDDABLE : Outcome.NOT_JSON;
                    }
                    if (stackObject[top] == 0) {
                        node = paths.element(stackNode[top]);
                    }
                }
                default -> {
                    record(node, out);
                    paths.markScalar(node);
                    if (t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                        BigInteger n = p.getBigIntegerValue();
                        windowInteger |= n.compareTo(INT64_MAX) > 0 && n.compareTo(UINT64_MAX) <= 0;
                    }
                    if (top < 0) {
                        return p.nextToken() == null ? Outcome.SHREDDABLE : Outcome.NOT_JSON;
                    }
                    if (stackObject[top] == 0) {
                        node = paths.element(stackNode[top]);
                    }
                }
            }
        }
        return Outcome.NOT_JSON;
    }

    /**
     * Whether the object at {@code top} already had {@code key} in any case. Keys with a node are checked through
     * their folded node; past the trie's bound, through a set of this object's folded keys.
     */
    private boolean repeated(int node, String key, int top) {
        if (node == ShredPaths.OVERFLOW) {
            String lower = key.toLowerCase(Locale.ROOT);
            int twin = paths.foldedChild(stackNode[top], lower);
            if (twin > 0 && twin < keyHolder.length && keyHolder[twin] == stackObject[top]) {
                return true;
            }
            if (overflowKeys[top] == null) {
                overflowKeys[top] = new HashSet<>();
            }
            return !overflowKeys[top].add(lower);
        }
        int folded = paths.folded(node);
        keyHolder = grow(keyHolder, folded);
        if (keyHolder[folded] == stackObject[top]) {
            return true;
        }
        keyHolder[folded] = stackObject[top];
        if (overflowKeys[top] != null) {
            return !overflowKeys[top].add(key.toLowerCase(Locale.ROOT));
        }
        return false;
    }

    private void record(int node, Nodes out) {
        recorded = grow(recorded, node);
        if (recorded[node] != scans) {
            recorded[node] = scans;
            out.add(node);
        }
    }

    private static int[] grow(int[] a, int index) {
        return index < a.length ? a : Arrays.copyOf(a, Math.max(index + 1, a.length * 2));
    }
}
