package dev.millpond.testsupport;

import java.util.Locale;
import java.util.Random;

/**
 * A seeded generator of PostHog-like {@code properties} values for VARIANT dual-write: objects holding integers at
 * every edge of the uint64 window (INT64_MAX ± 1, UINT64_MAX ± 1, negatives, the same digits as strings and inside
 * other strings), at any depth of nested objects and arrays, deep nesting, {@code $}-prefixed keys, and a share of
 * text that is not JSON (some of which would become JSON if a window integer in it were quoted). Each call returns
 * either a JSON object (to be embedded as an object) or the text of a JSON string literal (to be embedded as a
 * string whose content may or may not be JSON); see {@link Value}.
 */
public final class HostileProperties {

    /** Integers around the window and its bounds, as JSON number text. */
    public static final String[] EDGE_INTEGERS = {"9223372036854775806", "9223372036854775807", "9223372036854775808",
            "9223372036854775809", "9999999999999999999", "10000000000000000000", "18446744073709551614",
            "18446744073709551615", "18446744073709551616", "99999999999999999999", "-9223372036854775808",
            "-9223372036854775809", "-18446744073709551615", "0", "-1", "1700000000000000000", "1234567890123456789"};
    /** Text that DuckDB does not accept as JSON; the last two parse once their window integer is quoted. */
    private static final String[] NOT_JSON = {"{broken", "{\"a\":01}", "{a:1}", "'x'", "{\"a\":1} {\"b\":2}", "",
            "[18446744073709551615", "{\"n\":9223372036854775808", "{9223372036854775808:1}",
            "{\"k\":1,18446744073709551615}"};
    private static final String[] BROWSERS = {"Chrome", "Firefox", "Safari", "Edge"};

    private final Random random;

    public HostileProperties(Random random) {
        this.random = random;
    }

    /**
     * @param json     the value as it appears in the record: a JSON object, or a JSON string literal
     * @param asString whether {@code json} is a string literal (its content is {@code text})
     * @param text     what the source column holds for a string, the object's own text otherwise
     * @param valid    whether {@code text} is JSON DuckDB accepts (false only for the not-JSON strings)
     */
    public record Value(String json, boolean asString, String text, boolean valid) {
    }

    public Value next() {
        int r = random.nextInt(100);
        if (r < 8) {
            String text = NOT_JSON[random.nextInt(NOT_JSON.length)];
            return new Value(quote(text), true, text, false);
        }
        String object = object(0, 1 + random.nextInt(r < 15 ? 120 : 4));
        if (r < 25) {
            return new Value(quote(object), true, object, true);
        }
        return new Value(object, false, object, true);
    }

    /** An object whose nesting reaches {@code depth} levels below it somewhere. */
    private String object(int level, int depth) {
        StringBuilder b = new StringBuilder("{");
        b.append("\"$browser\":\"").append(BROWSERS[random.nextInt(BROWSERS.length)]).append('"');
        int keys = random.nextInt(6);
        // Distinct keys: which value of a repeated key a VARIANT keeps is not specified (DuckDB's inlined and parquet
        // reads differ), so a repeated key proves nothing about the dual-write.
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < keys; i++) {
            String key = key(i);
            if (seen.add(key)) {
                b.append(",\"").append(key).append("\":").append(leaf());
            }
        }
        if (level < depth) {
            b.append(",\"nested\":").append(random.nextBoolean() ? object(level + 1, depth) : array(level + 1, depth));
        }
        return b.append('}').toString();
    }

    private String array(int level, int depth) {
        StringBuilder b = new StringBuilder("[");
        int items = random.nextInt(4);
        for (int i = 0; i < items; i++) {
            b.append(leaf()).append(',');
        }
        b.append(level < depth ? (random.nextBoolean() ? object(level + 1, depth) : array(level + 1, depth)) : leaf());
        return b.append(']').toString();
    }

    private String key(int i) {
        return switch (random.nextInt(5)) {
            case 0 -> "$set" + i;
            case 1 -> "n" + i;
            case 2 -> "k" + EDGE_INTEGERS[random.nextInt(EDGE_INTEGERS.length)];
            default -> "p" + random.nextInt(50);
        };
    }

    private String leaf() {
        int r = random.nextInt(100);
        String edge = EDGE_INTEGERS[random.nextInt(EDGE_INTEGERS.length)];
        if (r < 40) {
            return edge;
        } else if (r < 50) {
            return "\"" + edge + "\"";
        } else if (r < 55) {
            return "\"id " + edge + " \\\"" + edge + "\\\"\"";
        } else if (r < 60) {
            return "[" + edge + ",-" + edge.replace("-", "") + "," + edge + ".5," + edge + "e2]";
        } else if (r < 70) {
            return Integer.toString(random.nextInt(1000));
        } else if (r < 78) {
            return String.format(Locale.ROOT, "%.3f", random.nextDouble() * 100);
        } else if (r < 85) {
            return random.nextBoolean() ? "true" : "null";
        }
        return "\"s" + random.nextInt(100) + "\"";
    }

    /** {@code text} as a JSON string literal. */
    public static String quote(String text) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.append('"').toString();
    }

    /** A payload key that collides with the companion {@code source_variant} in a random casing. */
    public String collidingKey(String source) {
        String name = source + "_variant";
        StringBuilder b = new StringBuilder();
        for (char c : name.toCharArray()) {
            b.append(random.nextBoolean() ? Character.toUpperCase(c) : c);
        }
        return b.toString();
    }
}
