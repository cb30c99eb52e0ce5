package dev.millpond.testsupport.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.millpond.testsupport.HostileProperties;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Random;

/**
 * PostHog-shaped events ({@link PostHogEvents}) made hostile for VARIANT dual-write, as a new user's corpus would be:
 * four JSON object columns a pipeline may dual-write ({@link #SOURCES}: {@code properties}, {@code person_properties}
 * and two more, {@code group_properties} and {@code context}), whose values carry, seeded by the event's id:
 * integers at every edge of the uint64 window, nested and deep values ({@link HostileProperties}) under keys of their
 * own (a long tail of key paths), text that is not JSON, and a payload key that collides with a companion in a random
 * casing. About one event in eight is hostile in some column; the rest are plain PostHog events.
 */
public final class VariantPostHogEvents {

    /** The object columns of every event, in the order a pipeline would list them in MILLPOND_VARIANT_COLUMNS. */
    public static final List<String> SOURCES = List.of("properties", "person_properties", "group_properties", "context");

    private static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(com.fasterxml.jackson.core.StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .nodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true))
            .build();

    private VariantPostHogEvents() {
    }

    /** The event with this id. */
    public static byte[] event(long id) {
        Random random = new Random(id * 0x2545F4914F6CDD1DL + 7);
        HostileProperties hostile = new HostileProperties(random);
        try {
            ObjectNode event = (ObjectNode) JSON.readTree(PostHogEvents.event(id));
            event.set("group_properties", JSON.readTree("{\"name\":\"team-" + (id % 97) + "\",\"plan\":\""
                    + PostHogEvents.PLANS[(int) (id % PostHogEvents.PLANS.length)] + "\",\"seats\":" + (id % 50) + "}"));
            event.set("context", JSON.readTree("{\"library\":{\"name\":\"posthog-js\",\"version\":\"1." + (id % 200)
                    + ".0\"},\"ip\":\"10.0." + (id % 255) + "." + (id % 251) + "\"}"));
            int kind = random.nextInt(64);
            if (kind < 4) {
                // A hazardous value under a key of its own: nested, window integers, a long tail of paths.
                ((ObjectNode) event.get("properties")).putRawValue("$hazard_" + random.nextInt(40),
                        new RawValue(hostile.next().json()));
            } else if (kind < 6) {
                ((ObjectNode) event.get("person_properties")).putRawValue("$set_hazard",
                        new RawValue(hostile.next().json()));
            } else if (kind < 7) {
                // The whole column as text: some of it JSON, some not.
                event.putRawValue(SOURCES.get(random.nextInt(SOURCES.size())), new RawValue(hostile.next().json()));
            } else if (kind < 8) {
                ((ObjectNode) event.get("group_properties")).putRawValue("edge",
                        new RawValue(HostileProperties.EDGE_INTEGERS[random.nextInt(HostileProperties.EDGE_INTEGERS.length)]));
                ((ObjectNode) event.get("context")).putRawValue("ids",
                        new RawValue("[" + HostileProperties.EDGE_INTEGERS[random.nextInt(HostileProperties.EDGE_INTEGERS.length)]
                                + "," + HostileProperties.EDGE_INTEGERS[random.nextInt(HostileProperties.EDGE_INTEGERS.length)] + "]"));
            } else if (kind < 9) {
                event.put(hostile.collidingKey(SOURCES.get(random.nextInt(SOURCES.size()))), random.nextInt(10));
            }
            return JSON.writeValueAsBytes(event);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text the source column {@code source} holds for this event, as the converter writes it: JSON, or a string. */
    public static String sourceText(byte[] event, String source) {
        try {
            JsonNode value = JSON.readTree(event).get(source);
            return value == null || value.isNull() ? null : value.isTextual() ? value.asText() : JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
