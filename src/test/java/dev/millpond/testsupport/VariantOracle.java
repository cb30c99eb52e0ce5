package dev.millpond.testsupport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * What a VARIANT companion must hold for a source column's text, independently of the sink's code: the text parsed
 * as strict JSON, with every integer of (INT64_MAX, UINT64_MAX] turned into a string; nothing (a NULL companion) when
 * the text is not JSON or is JSON {@code null}. {@link #matches} compares a companion read back as JSON with it,
 * numbers by value (DuckDB keeps integers beyond UINT64_MAX as doubles).
 */
public final class VariantOracle {

    private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final BigInteger UINT64_MAX = new BigInteger("18446744073709551615");
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS, DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS,
                    DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    static {
        JSON.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(100_000).build());
    }

    private VariantOracle() {
    }

    /** The companion {@code source} must have; empty for a NULL companion. */
    public static Optional<JsonNode> expected(String source) {
        if (source == null) {
            return Optional.empty();
        }
        JsonNode tree = parse(source);
        if (tree == null || tree.isNull()) {
            return Optional.empty();
        }
        return Optional.of(quoteWindow(tree));
    }

    /** Strict JSON, or null when {@code text} is not JSON (empty text is not: Jackson reads it as a missing node). */
    public static JsonNode parse(String text) {
        try {
            JsonNode tree = JSON.readTree(text);
            return tree == null || tree.isMissingNode() ? null : tree;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    public static boolean inWindow(BigInteger n) {
        return n.compareTo(INT64_MAX) > 0 && n.compareTo(UINT64_MAX) <= 0;
    }

    private static JsonNode quoteWindow(JsonNode node) {
        if (node.isBigInteger() && inWindow(node.bigIntegerValue())) {
            return TextNode.valueOf(node.bigIntegerValue().toString());
        }
        if (node instanceof ObjectNode o) {
            ObjectNode copy = JSON.createObjectNode();
            o.fields().forEachRemaining(e -> copy.set(e.getKey(), quoteWindow(e.getValue())));
            return copy;
        }
        if (node instanceof ArrayNode a) {
            ArrayNode copy = JSON.createArrayNode();
            a.forEach(v -> copy.add(quoteWindow(v)));
            return copy;
        }
        return node;
    }

    /** Whether {@code actual} (a companion cast to JSON) holds the same value as {@code expected}. */
    public static boolean matches(JsonNode expected, JsonNode actual) {
        if (expected.isNumber() && actual.isNumber()) {
            BigDecimal e = expected.decimalValue();
            BigDecimal a = actual.decimalValue();
            return e.compareTo(a) == 0 || expected.doubleValue() == actual.doubleValue();
        }
        if (expected.isObject() && actual.isObject()) {
            if (expected.size() != actual.size()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!actual.has(e.getKey()) || !matches(e.getValue(), actual.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (expected.isArray() && actual.isArray()) {
            if (expected.size() != actual.size()) {
                return false;
            }
            for (int i = 0; i < expected.size(); i++) {
                if (!matches(expected.get(i), actual.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return expected.equals(actual);
    }
}
