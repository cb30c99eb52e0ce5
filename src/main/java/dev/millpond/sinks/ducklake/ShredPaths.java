package dev.millpond.sinks.ducklake;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The shape DuckDB would shred one flush's VARIANT companions into: a tree of the key paths their JSON takes (object
 * keys, and one element node per array), one root per companion, each node numbered. DuckDB's parquet writer turns
 * every node of the paths it analyses into columns of its own — a {@code value} column for each node and a
 * {@code typed_value} column for each node that holds scalars — and its memory grows with that number of columns
 * (docs/variant.md), so {@link #leaves} is what a node costs.
 *
 * <p>A node also knows its case-folded twin: the first node under the same parent whose key folds to the same lower
 * case, so a scan can tell keys that DuckDB's shredded structs would take for one (field names are case-insensitive
 * there) without folding a string per key. Written by hand because no library keeps a path trie with these two facts;
 * the keys come from Jackson's symbol table, so a repeated key is the same String and a lookup allocates nothing.
 *
 * <p>Bounded: past {@link #MAX_NODES} every new path is the {@link #OVERFLOW} node, which no budget can afford, so a
 * row with such a path is never analysed (it is written after a flush's analysed rows, or not at all).
 */
final class ShredPaths {

    /** A path no budget can afford: the trie is full. */
    static final int OVERFLOW = 0;
    /** About 100 bytes of heap a node; 64k nodes is a few MiB, and far more than any budget shreds. */
    static final int MAX_NODES = 1 << 16;

    private final List<Map<String, Integer>> children = new ArrayList<>();
    private final List<Map<String, Integer>> foldedChildren = new ArrayList<>();
    private int[] element = new int[64];
    private int[] folded = new int[64];
    private boolean[] scalar = new boolean[64];
    private boolean[] root = new boolean[64];
    private int size;

    ShredPaths() {
        newNode(); // OVERFLOW
    }

    /** A companion's root: the node of the value itself. */
    int root() {
        int node = newNode();
        root[node] = true;
        return node;
    }

    /** The node of {@code key} under object node {@code parent}. */
    int child(int parent, String key) {
        if (parent == OVERFLOW) {
            return OVERFLOW;
        }
        Map<String, Integer> map = children.get(parent);
        if (map == null) {
            map = new HashMap<>();
            children.set(parent, map);
        }
        Integer id = map.get(key);
        if (id != null) {
            return id;
        }
        if (size >= MAX_NODES) {
            return OVERFLOW;
        }
        int node = newNode();
        map.put(key, node);
        Map<String, Integer> foldedMap = foldedChildren.get(parent);
        if (foldedMap == null) {
            foldedMap = new HashMap<>();
            foldedChildren.set(parent, foldedMap);
        }
        folded[node] = foldedMap.computeIfAbsent(key.toLowerCase(Locale.ROOT), k -> node);
        return node;
    }

    /** The folded node of an existing key of {@code parent} that folds to {@code lowerKey}, or 0 when there is none. */
    int foldedChild(int parent, String lowerKey) {
        Map<String, Integer> map = parent == OVERFLOW ? null : foldedChildren.get(parent);
        Integer id = map == null ? null : map.get(lowerKey);
        return id == null ? 0 : id;
    }

    /** The node of the elements of array node {@code parent}. */
    int element(int parent) {
        if (parent == OVERFLOW) {
            return OVERFLOW;
        }
        if (element[parent] == 0) {
            if (size >= MAX_NODES) {
                return OVERFLOW;
            }
            int node = newNode();
            element[parent] = node;
        }
        return element[parent];
    }

    /** The first node under the same parent whose key folds to this node's folded key (itself if none before it). */
    int folded(int node) {
        return folded[node];
    }

    /** The node held a scalar in some row: DuckDB gives it a {@code typed_value} column. */
    void markScalar(int node) {
        scalar[node] = true;
    }

    /**
     * The parquet columns DuckDB writes for the node: its {@code value}, a {@code typed_value} for scalars, and the
     * VARIANT's {@code metadata} at a root.
     */
    long leaves(int node) {
        if (node == OVERFLOW) {
            return Long.MAX_VALUE / 4;
        }
        return 1 + (scalar[node] ? 1 : 0) + (root[node] ? 1 : 0);
    }

    int size() {
        return size;
    }

    private int newNode() {
        if (size == element.length) {
            element = Arrays.copyOf(element, size * 2);
            folded = Arrays.copyOf(folded, size * 2);
            scalar = Arrays.copyOf(scalar, size * 2);
            root = Arrays.copyOf(root, size * 2);
        }
        children.add(null);
        foldedChildren.add(null);
        folded[size] = size;
        return size++;
    }
}
