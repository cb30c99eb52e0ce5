package dev.millpond.testsupport.events;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * PostHog-shaped JSON events with the mix a real topic has: strings, ints, floats, bools, nulls, nested properties,
 * a column that is int in some events and float in others, and the odd unparseable payload.
 */
public final class SampleEvents {

    private static final String[] EVENTS = {"$pageview", "$autocapture", "$identify", "signup", "purchase"};
    private static final String[] BROWSERS = {"Chrome", "Firefox", "Safari", "Edge"};

    private SampleEvents() {
    }

    /** The event with this id; the same id always gives the same bytes, so tests can recompute what they expect. */
    public static byte[] event(long id) {
        Random random = new Random(id * 0x9E3779B97F4A7C15L);
        int team = 1 + random.nextInt(5);
        String event = EVENTS[random.nextInt(EVENTS.length)];
        StringBuilder b = new StringBuilder(512);
        b.append("{\"id\":").append(id)
                .append(",\"uuid\":\"").append(new UUID(random.nextLong(), random.nextLong())).append('"')
                .append(",\"event\":\"").append(event).append('"')
                .append(",\"team_id\":").append(team)
                .append(",\"distinct_id\":\"user-").append(random.nextInt(1000)).append('"')
                .append(",\"timestamp\":\"2026-11-29 12:").append(String.format("%02d:%02d.%03d", random.nextInt(60),
                        random.nextInt(60), random.nextInt(1000))).append('"')
                // int in some events, float in others: the column must land as DOUBLE
                .append(",\"amount\":").append(random.nextBoolean() ? Integer.toString(random.nextInt(100))
                        : (random.nextInt(10000) / 100.0))
                .append(",\"is_identified\":").append(random.nextBoolean())
                .append(",\"person_id\":").append(random.nextInt(4) == 0 ? "null" : "\"p-" + random.nextInt(500) + "\"")
                .append(",\"properties\":{\"$browser\":\"").append(BROWSERS[random.nextInt(BROWSERS.length)])
                .append("\",\"$screen_width\":").append(1024 + random.nextInt(1000))
                .append(",\"utm\":{\"source\":\"news\",\"tags\":[1,2,3]},\"ratio\":1.5}")
                .append('}');
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Events {@code firstId .. firstId + count - 1}. */
    public static List<byte[]> events(long firstId, int count) {
        List<byte[]> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(event(firstId + i));
        }
        return out;
    }
}
