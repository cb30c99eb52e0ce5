package dev.millpond.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * A seeded generator of hostile Kafka values for one partition: mostly valid JSON objects built to stress a writer
 * (very wide, deeply nested, huge strings near the broker's message size limit, 10,000-character keys, keys that are
 * new in nearly every record, a key whose type flips with the partition, numbers at every edge), plus a share of
 * invalid ones. Every value starts with {@code {"id":<id>} or carries {@code <id>} as its first number, so a test can
 * find each produced record again in the table or in the rejects table. Deterministic for a given seed.
 */
public final class HostileJson {

    /** The broker's default message.max.bytes is 1,048,588; stay just under it with the envelope. */
    public static final int NEAR_MAX_MESSAGE_BYTES = 1_000_000;

    /**
     * The size of {@link #nextLarge}'s megabyte records: past the broker's default limit, so a topic that takes them
     * is created with a larger {@code max.message.bytes} ({@link #LARGE_TOPIC_CONFIG}).
     */
    public static final int LARGE_MESSAGE_BYTES = 5_000_000;
    public static final java.util.Map<String, String> LARGE_TOPIC_CONFIG = java.util.Map.of("max.message.bytes",
            Integer.toString(8 << 20));

    /** What a generated value is, for the test's report. */
    public enum Kind {
        PLAIN, WIDE, VERY_WIDE, DEEP, TOO_DEEP, HUGE_STRING, LONG_KEY, FRESH_KEYS, TYPE_FLIP, EDGE_NUMBERS, UNICODE,
        MALFORMED, NOT_AN_OBJECT,
        /** A {@code properties} field for VARIANT dual-write ({@link HostileProperties}); only with that option. */
        PROPERTIES,
        /** {@link #nextLarge}: a multi-megabyte string that does not close, an array of the same size, an object of
         * tens of thousands of keys, or nesting too deep to parse. */
        HUGE_MALFORMED, HUGE_NOT_AN_OBJECT, MANY_KEYS
    }

    private static final String[] EDGE_NUMBERS = {"0", "-0", "-0.0", "0.0", "1e308", "-1e308", "1e-308", "5e-324",
            "2.2250738585072014E-308", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
            "-9223372036854775809", "123456789012345678901234567890", "1e400", "-1e400", "0.1", "1E+2", "1.5e-7"};
    private static final String[] NAN_LIKE = {"\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"nan\"", "\"1e999\""};

    private final Random random;
    private final int partition;
    private final HostileProperties properties;
    private long freshKeys;

    public HostileJson(long seed, int partition) {
        this(seed, partition, false);
    }

    /**
     * @param withProperties also produce {@link Kind#PROPERTIES} records (two in five): a {@code properties} object or
     *                       string from {@link HostileProperties}, sometimes next to a payload key that collides with
     *                       {@code properties_variant} in a random casing
     */
    public HostileJson(long seed, int partition, boolean withProperties) {
        this.random = new Random(seed * 31 + partition);
        this.partition = partition;
        this.properties = withProperties ? new HostileProperties(new Random(seed * 17 + partition)) : null;
    }

    public record Value(long id, Kind kind, byte[] bytes) {
    }

    public Value next(long id) {
        Kind kind = properties != null && random.nextInt(5) < 2 ? Kind.PROPERTIES : pick();
        String json = switch (kind) {
            case PLAIN -> "{\"id\":" + id + ",\"event\":\"e" + random.nextInt(5) + "\",\"n\":" + random.nextInt(100) + "}";
            case WIDE -> wide(id, 20 + random.nextInt(60), "k");
            case VERY_WIDE -> wide(id, 1_000 + random.nextInt(4_000), "v" + random.nextInt(3) + "_");
            case DEEP -> nested(id, 50 + random.nextInt(400));
            case TOO_DEEP -> nested(id, 1_500 + random.nextInt(20_000));
            case HUGE_STRING -> "{\"id\":" + id + ",\"blob\":\"" + "x".repeat(NEAR_MAX_MESSAGE_BYTES - 64
                    - random.nextInt(1_000)) + "\"}";
            case LONG_KEY -> "{\"id\":" + id + ",\"" + "k" + "a".repeat(9_999) + random.nextInt(3) + "\":1}";
            case FRESH_KEYS -> fresh(id, 20 + random.nextInt(40));
            case TYPE_FLIP -> "{\"id\":" + id + ",\"flip\":" + flipValue() + "}";
            case EDGE_NUMBERS -> edges(id);
            case UNICODE -> "{\"id\":" + id + ",\"text\":\"\\u00e9\\ud83d\\ude00 \u4e2d\u6587 \\\" \\\\ \\n\\t\\u0001\"}";
            case MALFORMED -> switch (random.nextInt(5)) {
                case 0 -> "{\"id\":" + id + ", broken";
                case 1 -> "{\"id\":" + id + ",\"x\":NaN}";
                case 2 -> "{\"id\":" + id + "} trailing";
                case 3 -> "{\"id\":" + id + ",\"s\":\"\\ud800\"}";
                default -> "{\"id\":" + id + ",\"x\":01}";
            };
            case NOT_AN_OBJECT -> random.nextBoolean() ? "[" + id + ",1,2]" : "\"id " + id + "\"";
            case PROPERTIES -> "{\"id\":" + id + ",\"event\":\"$pageview\",\"properties\":" + properties.next().json()
                    + (random.nextInt(6) == 0 ? ",\"" + properties.collidingKey("properties") + "\":\"poison\"" : "")
                    + "}";
            case HUGE_MALFORMED, HUGE_NOT_AN_OBJECT, MANY_KEYS -> throw new IllegalStateException("see nextLarge");
        };
        return new Value(id, kind, json.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * One of the large records a writer is most likely to reject, each carrying {@code <id>} as its first number:
     * megabyte strings (malformed, or a top-level array), objects of tens of thousands of keys, deep nesting.
     */
    public Value nextLarge(long id) {
        Kind kind = switch (random.nextInt(4)) {
            case 0 -> Kind.HUGE_MALFORMED;
            case 1 -> Kind.HUGE_NOT_AN_OBJECT;
            case 2 -> Kind.MANY_KEYS;
            default -> Kind.TOO_DEEP;
        };
        int size = LARGE_MESSAGE_BYTES - random.nextInt(100_000);
        String json = switch (kind) {
            case HUGE_MALFORMED -> "{\"id\":" + id + ",\"blob\":\"" + text(size - 40);
            case HUGE_NOT_AN_OBJECT -> "[" + id + ",\"" + text(size - 40) + "\"]";
            case MANY_KEYS -> wide(id, 10_000 + random.nextInt(15_000), "m" + random.nextInt(1_000) + "_");
            default -> nested(id, 100_000 + random.nextInt(200_000));
        };
        return new Value(id, kind, json.getBytes(StandardCharsets.UTF_8));
    }

    /** Printable text with multi-byte characters, so a cut value would show as a broken code point too. */
    private String text(int bytes) {
        StringBuilder b = new StringBuilder(bytes);
        while (b.length() < bytes) {
            b.append(random.nextInt(20) == 0 ? "\u00e9\u4e2d" : Character.toString('a' + random.nextInt(26)));
        }
        return b.toString();
    }

    private Kind pick() {
        int r = random.nextInt(100);
        if (r < 30) {
            return Kind.PLAIN;
        } else if (r < 40) {
            return Kind.WIDE;
        } else if (r < 43) {
            return Kind.VERY_WIDE;
        } else if (r < 48) {
            return Kind.DEEP;
        } else if (r < 51) {
            return Kind.TOO_DEEP;
        } else if (r < 53) {
            return Kind.HUGE_STRING;
        } else if (r < 56) {
            return Kind.LONG_KEY;
        } else if (r < 68) {
            return Kind.FRESH_KEYS;
        } else if (r < 78) {
            return Kind.TYPE_FLIP;
        } else if (r < 88) {
            return Kind.EDGE_NUMBERS;
        } else if (r < 92) {
            return Kind.UNICODE;
        } else if (r < 96) {
            return Kind.MALFORMED;
        }
        return Kind.NOT_AN_OBJECT;
    }

    private String wide(long id, int keys, String prefix) {
        StringBuilder b = new StringBuilder("{\"id\":").append(id);
        for (int i = 0; i < keys; i++) {
            b.append(",\"").append(prefix).append(i).append("\":").append(i % 7 == 0 ? "\"s\"" : Integer.toString(i));
        }
        return b.append('}').toString();
    }

    /** Keys never seen before: across a few hundred records, tens of thousands of distinct keys. */
    private String fresh(long id, int keys) {
        StringBuilder b = new StringBuilder("{\"id\":").append(id);
        for (int i = 0; i < keys; i++) {
            b.append(",\"f").append(partition).append('_').append(freshKeys++).append("\":").append(i);
        }
        return b.append('}').toString();
    }

    private String nested(long id, int depth) {
        StringBuilder b = new StringBuilder("{\"id\":").append(id).append(",\"deep\":");
        for (int i = 0; i < depth; i++) {
            b.append(i % 2 == 0 ? "[" : "{\"a\":");
        }
        b.append("1");
        for (int i = depth - 1; i >= 0; i--) {
            b.append(i % 2 == 0 ? "]" : "}");
        }
        return b.append('}').toString();
    }

    /** The same key holds another JSON type in each partition (and sometimes within one). */
    private String flipValue() {
        int t = (partition + random.nextInt(4) / 3) % 5;
        return switch (t) {
            case 0 -> Long.toString(random.nextLong());
            case 1 -> "\"text\"";
            case 2 -> "true";
            case 3 -> "{\"nested\":[1,2.5,null]}";
            default -> "2.75";
        };
    }

    private String edges(long id) {
        StringBuilder b = new StringBuilder("{\"id\":").append(id);
        for (int i = 0; i < 4; i++) {
            b.append(",\"num").append(random.nextInt(6)).append("\":")
                    .append(EDGE_NUMBERS[random.nextInt(EDGE_NUMBERS.length)]);
        }
        b.append(",\"nanlike\":").append(NAN_LIKE[random.nextInt(NAN_LIKE.length)]);
        return b.append('}').toString();
    }
}
