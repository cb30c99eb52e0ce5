package dev.millpond.sinks.ducklake;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.millpond.testsupport.HostileProperties;
import dev.millpond.testsupport.VariantOracle;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scan against an independent reading of each value: a Jackson token walk that collects the key paths (arrays as
 * one element path) and the shapes DuckDB cannot write, over generated values of every kind.
 */
class CompanionScanTest {

    private static final JsonFactory ORACLE = JsonFactory.builder().streamReadConstraints(StreamReadConstraints
            .builder().maxNestingDepth(100_000).maxNumberLength(Integer.MAX_VALUE).build()).build();

    @Test
    void outcomeWindowFlagAndPathsMatchAnIndependentReadingOfGeneratedValues() {
        Random random = new Random(41);
        HostileProperties hostile = new HostileProperties(random);
        ShredPaths paths = null;
        CompanionScan scan = null;
        int root = 0;
        Set<String> allPaths = new HashSet<>();
        int[] outcomes = new int[CompanionScan.Outcome.values().length];
        for (int i = 0; i < 20_000; i++) {
            if (i % 500 == 0) {
                // A trie per flush, as the sink has, far below its bound.
                paths = new ShredPaths();
                scan = new CompanionScan(paths);
                root = paths.root();
            }
            String text = i % 3 == 0 ? generated(random, 0) : hostile.next().text();
            Expected expected = expected(text);
            List<Integer> nodes = new ArrayList<>();
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            CompanionScan.Outcome outcome = scan.scan(bytes, 0, bytes.length, root, nodes::add);
            outcomes[outcome.ordinal()]++;
            assertThat(outcome).as(text).isEqualTo(expected.outcome);
            if (outcome == CompanionScan.Outcome.SHREDDABLE) {
                assertThat(scan.windowInteger()).as(text).isEqualTo(expected.window);
                assertThat(nodes).as(text).doesNotHaveDuplicates().hasSize(expected.paths.size())
                        .doesNotContain(ShredPaths.OVERFLOW);
                allPaths.addAll(expected.paths);
            }
        }
        assertThat(allPaths).hasSizeGreaterThan(100);
        assertThat(java.util.Arrays.stream(outcomes).min().orElse(0)).as("every outcome is reached").isGreaterThan(20);
    }

    @Test
    void keysThatDifferOnlyInCaseOrEscapesAreOneKeyAndObjectsInArraysAreCheckedApart() {
        ShredPaths paths = new ShredPaths();
        CompanionScan scan = new CompanionScan(paths);
        int root = paths.root();
        assertThat(outcome(scan, root, "{\"a\":1,\"A\":2}")).isEqualTo(CompanionScan.Outcome.DUPLICATE_KEY);
        assertThat(outcome(scan, root, "{\"a\":1,\"\\u0061\":2}")).isEqualTo(CompanionScan.Outcome.DUPLICATE_KEY);
        assertThat(outcome(scan, root, "[{\"a\":1},{\"a\":2},{\"A\":3}]")).isEqualTo(CompanionScan.Outcome.SHREDDABLE);
        assertThat(outcome(scan, root, "{\"a\":{\"a\":{\"A\":1}},\"A1\":1}")).isEqualTo(CompanionScan.Outcome.SHREDDABLE);
        assertThat(outcome(scan, root, "{\"x\":{\"\":1}}")).isEqualTo(CompanionScan.Outcome.EMPTY_KEY);
        assertThat(outcome(scan, root, "{\"a\":1} {\"b\":2}")).isEqualTo(CompanionScan.Outcome.NOT_JSON);
        assertThat(outcome(scan, root, "\"text\"")).isEqualTo(CompanionScan.Outcome.SHREDDABLE);
        assertThat(outcome(scan, root, "[" .repeat(128) + "]".repeat(128))).isEqualTo(CompanionScan.Outcome.SHREDDABLE);
        assertThat(outcome(scan, root, "[" .repeat(129) + "]".repeat(129))).isEqualTo(CompanionScan.Outcome.TOO_DEEP);
    }

    @Test
    void pastTheTrieBoundRowsStillFindTheirRepeatedKeysAndShareTheOverflowNode() {
        ShredPaths paths = new ShredPaths();
        CompanionScan scan = new CompanionScan(paths);
        int root = paths.root();
        StringBuilder wide = new StringBuilder("{");
        for (int k = 0; k < ShredPaths.MAX_NODES + 10; k++) {
            wide.append(k == 0 ? "" : ",").append("\"k").append(k).append("\":1");
        }
        List<Integer> nodes = new ArrayList<>();
        byte[] bytes = (wide + "}").getBytes(StandardCharsets.UTF_8);
        assertThat(scan.scan(bytes, 0, bytes.length, root, nodes::add)).isEqualTo(CompanionScan.Outcome.SHREDDABLE);
        assertThat(nodes).contains(ShredPaths.OVERFLOW);
        assertThat(paths.leaves(ShredPaths.OVERFLOW)).isGreaterThan(Integer.MAX_VALUE);
        // A key past the bound repeating one before it, and two past it repeating each other.
        assertThat(outcome(scan, root, "{\"k1\":1,\"zz1\":2,\"K1\":3}")).isEqualTo(CompanionScan.Outcome.DUPLICATE_KEY);
        assertThat(outcome(scan, root, "{\"zz2\":1,\"ZZ2\":2}")).isEqualTo(CompanionScan.Outcome.DUPLICATE_KEY);
        assertThat(outcome(scan, root, "{\"zz3\":1,\"zz4\":2}")).isEqualTo(CompanionScan.Outcome.SHREDDABLE);
    }

    private static CompanionScan.Outcome outcome(CompanionScan scan, int root, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return scan.scan(bytes, 0, bytes.length, root, node -> { });
    }

    private record Expected(CompanionScan.Outcome outcome, boolean window, Set<String> paths) {
    }

    /** The reading the scan must agree with, from Jackson's token stream and plain collections. */
    private static Expected expected(String text) {
        com.fasterxml.jackson.databind.JsonNode tree = VariantOracle.parse(text);
        if (tree == null || tree.isMissingNode()) {
            return new Expected(CompanionScan.Outcome.NOT_JSON, false, Set.of());
        }
        Set<String> seen = new HashSet<>();
        boolean window = false;
        Deque<String> containers = new ArrayDeque<>();
        Deque<Set<String>> keys = new ArrayDeque<>();
        String pending = "$";
        try (JsonParser p = ORACLE.createParser(text)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                switch (t) {
                    case FIELD_NAME -> {
                        String key = p.currentName();
                        if (key.isEmpty()) {
                            return new Expected(CompanionScan.Outcome.EMPTY_KEY, false, Set.of());
                        }
                        if (!keys.peek().add(key.toLowerCase(Locale.ROOT))) {
                            return new Expected(CompanionScan.Outcome.DUPLICATE_KEY, false, Set.of());
                        }
                        pending = containers.peek() + "." + key;
                    }
                    case START_OBJECT, START_ARRAY -> {
                        if (containers.size() + 1 > Uint64WindowRewrite.MAX_DEPTH) {
                            return new Expected(CompanionScan.Outcome.TOO_DEEP, false, Set.of());
                        }
                        seen.add(pending + (t == JsonToken.START_OBJECT ? "{}" : "[]"));
                        containers.push(pending + (t == JsonToken.START_OBJECT ? "{}" : "[]"));
                        keys.push(new HashSet<>());
                        pending = t == JsonToken.START_ARRAY ? containers.peek() + "*" : null;
                    }
                    case END_OBJECT, END_ARRAY -> {
                        containers.pop();
                        keys.pop();
                        pending = !containers.isEmpty() && containers.peek().endsWith("[]")
                                ? containers.peek() + "*" : null;
                    }
                    default -> {
                        seen.add(pending + "=");
                        if (t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                            window |= VariantOracle.inWindow(p.getBigIntegerValue());
                        }
                        pending = !containers.isEmpty() && containers.peek().endsWith("[]")
                                ? containers.peek() + "*" : null;
                    }
                }
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        // A path held as an object, an array or a scalar in different places of one value is one node.
        Set<String> nodes = new HashSet<>();
        for (String s : seen) {
            nodes.add(s.endsWith("{}") || s.endsWith("[]") ? s.substring(0, s.length() - 2) : s.substring(0, s.length() - 1));
        }
        return new Expected(CompanionScan.Outcome.SHREDDABLE, window, nodes);
    }

    /** Random JSON of every kind, including the shapes the scan must refuse and numbers around the window. */
    private static String generated(Random random, int depth) {
        int kind = random.nextInt(depth > 6 ? 6 : 9);
        return switch (kind) {
            case 0 -> "null";
            case 1 -> random.nextBoolean() ? "true" : "false";
            case 2 -> HostileProperties.EDGE_INTEGERS[random.nextInt(HostileProperties.EDGE_INTEGERS.length)];
            case 3 -> new BigInteger(70, random).toString();
            case 4 -> String.format(Locale.ROOT, "%.4f", random.nextDouble());
            case 5 -> "\"s" + random.nextInt(10) + "\\\"\\u00e9\"";
            case 6, 7 -> {
                StringBuilder b = new StringBuilder("{");
                int n = random.nextInt(5);
                for (int i = 0; i < n; i++) {
                    String key = switch (random.nextInt(12)) {
                        case 0 -> "";
                        case 1 -> "K" + random.nextInt(3);
                        default -> "k" + random.nextInt(3);
                    };
                    b.append(i == 0 ? "" : ",").append('"').append(key).append("\":").append(generated(random, depth + 1));
                }
                yield b.append('}').toString();
            }
            default -> {
                StringBuilder b = new StringBuilder("[");
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    b.append(i == 0 ? "" : ",").append(generated(random, depth + 1));
                }
                yield random.nextInt(40) == 0 ? "[".repeat(130) + b + "]".repeat(130) + "]" : b.append(']').toString();
            }
        };
    }
}
