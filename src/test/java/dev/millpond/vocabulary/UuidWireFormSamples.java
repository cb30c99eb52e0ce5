package dev.millpond.vocabulary;

import java.util.Random;

/** Seeded near-misses of the uuid wire form: valid shapes with one or two characters inserted, removed or changed. */
public final class UuidWireFormSamples {

    private static final String[] SHAPES = {"%s-%s-%s-%s-%s", "%s%s%s%s%s", "{%s-%s-%s-%s-%s}", "{%s%s%s%s%s}",
        "urn:uuid:%s-%s-%s-%s-%s", "urn:uuid:%s%s%s%s%s"};
    private static final String NOISE = "0123456789abcdefABCDEFgG-{}:_ xuU";

    private UuidWireFormSamples() {
    }

    public static String mutated(Random random) {
        StringBuilder s = new StringBuilder(String.format(SHAPES[random.nextInt(SHAPES.length)],
                hex(random, 8), hex(random, 4), hex(random, 4), hex(random, 4), hex(random, 12)));
        int edits = random.nextInt(3); // a third stay valid
        for (int e = 0; e < edits; e++) {
            int at = random.nextInt(s.length());
            char c = NOISE.charAt(random.nextInt(NOISE.length()));
            switch (random.nextInt(3)) {
                case 0 -> s.insert(at, c);
                case 1 -> s.deleteCharAt(at);
                default -> s.setCharAt(at, c);
            }
        }
        return s.toString();
    }

    private static String hex(Random random, int digits) {
        StringBuilder s = new StringBuilder(digits);
        for (int i = 0; i < digits; i++) {
            s.append("0123456789abcdefABCDEF".charAt(random.nextInt(22)));
        }
        return s.toString();
    }
}
