package dev.millpond.convert;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Random JSON records for property-style tests: mostly valid objects, some corrupted. */
final class RandomJson {
    private static final String[] KEYS = {"a", "b", "c", "event", "team_id", "x1", "é", "k_k", "", "dup"};
    private static final String[] STRINGS = {"", "x", "héllo", "東京", "😀", "a\\\"b", "back\\\\slash", "\\u00e9", "line\\nbreak"};
    private final Random random;

    RandomJson(Random random) {
        this.random = random;
    }

    /** A record: 80 % a valid object, otherwise a damaged or non-object value. */
    byte[] record() {
        int r = random.nextInt(100);
        if (r < 80) {
            return validRecord().getBytes(StandardCharsets.UTF_8);
        }
        byte[] b = validRecord().getBytes(StandardCharsets.UTF_8);
        switch (r % 8) {
            case 0 -> {
                return java.util.Arrays.copyOf(b, random.nextInt(b.length)); // truncated
            }
            case 1 -> {
                b[random.nextInt(b.length)] = (byte) random.nextInt(256); // one random byte
                return b;
            }
            case 2 -> {
                return value(2).getBytes(StandardCharsets.UTF_8); // any value, maybe not an object
            }
            case 3 -> {
                return ("{\"a\":" + (random.nextBoolean() ? "NaN" : "-Infinity") + "}").getBytes(StandardCharsets.UTF_8);
            }
            case 4 -> {
                byte[] noise = new byte[random.nextInt(20)];
                random.nextBytes(noise);
                return noise;
            }
            default -> {
                return b; // still valid
            }
        }
    }

    String validRecord() {
        StringBuilder sb = new StringBuilder("{");
        int n = random.nextInt(8);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append('"').append(KEYS[random.nextInt(KEYS.length)]).append("\":").append(value(3));
        }
        return sb.append('}').toString();
    }

    private String value(int depth) {
        int r = random.nextInt(depth > 0 ? 10 : 7);
        return switch (r) {
            case 0 -> "null";
            case 1 -> random.nextBoolean() ? "true" : "false";
            case 2 -> Long.toString(random.nextLong() >> random.nextInt(64));
            case 3 -> {
                double d = random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
                yield Double.toString(d);
            }
            case 4 -> "\"" + STRINGS[random.nextInt(STRINGS.length)] + "\"";
            case 5 -> random.nextBoolean() ? "18446744073709551615" : "-9223372036854775809";
            case 6 -> Integer.toString(random.nextInt(1000));
            case 7, 8 -> {
                StringBuilder sb = new StringBuilder("{");
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    sb.append(i > 0 ? "," : "").append('"').append(KEYS[random.nextInt(KEYS.length)]).append("\":")
                            .append(value(depth - 1));
                }
                yield sb.append('}').toString();
            }
            default -> {
                StringBuilder sb = new StringBuilder("[");
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    sb.append(i > 0 ? "," : "").append(value(depth - 1));
                }
                yield sb.append(']').toString();
            }
        };
    }
}
