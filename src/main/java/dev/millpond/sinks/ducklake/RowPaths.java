package dev.millpond.sinks.ducklake;

import java.util.Arrays;

/**
 * The path nodes ({@link ShredPaths}) of each row of one INSERT, all companions together, in one flat array: what
 * {@link ShredPlan} decides on. A row with a NULL companion has none.
 */
final class RowPaths implements CompanionScan.Nodes {

    private int[] nodes = new int[1024];
    private int[] start = new int[257];
    private int size;
    private int rows;
    private int maxNode;

    /** Adds a node to the row being built. */
    @Override
    public void add(int node) {
        if (size == nodes.length) {
            nodes = Arrays.copyOf(nodes, size * 2);
        }
        nodes[size++] = node;
        maxNode = Math.max(maxNode, node);
    }

    /** The nodes added so far, all rows. */
    int size() {
        return size;
    }

    /** Forgets the nodes added after the first {@code mark} (a companion of the row being built will be NULL). */
    void truncate(int mark) {
        size = mark;
    }

    /** Ends the row being built; the next node starts the next row. */
    void endRow() {
        rows++;
        if (rows + 1 >= start.length) {
            start = Arrays.copyOf(start, start.length * 2);
        }
        start[rows] = size;
    }

    /** The highest node any row has (0 when none has any). */
    int maxNode() {
        return maxNode;
    }

    int rows() {
        return rows;
    }

    int from(int row) {
        return start[row];
    }

    int to(int row) {
        return start[row + 1];
    }

    int node(int index) {
        return nodes[index];
    }
}
