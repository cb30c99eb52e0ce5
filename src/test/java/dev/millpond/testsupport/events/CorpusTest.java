package dev.millpond.testsupport.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import dev.millpond.vocabulary.Identifiers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CorpusTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SAMPLE = 400;

    private static JsonNode parse(byte[] event) throws Exception {
        JsonNode node = JSON.readTree(event);
        assertEquals(JsonNodeType.OBJECT, node.getNodeType());
        return node;
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    /** Mean size of the sample in bytes, each event parsed by Jackson as a JSON object on the way. */
    private static double meanSize(Corpus corpus) throws Exception {
        long bytes = 0;
        for (long id = 0; id < SAMPLE; id++) {
            byte[] event = corpus.event(id * 997);
            parse(event);
            bytes += event.length;
        }
        return (double) bytes / SAMPLE;
    }

    @ParameterizedTest
    @CsvSource({"posthog, 1100, 1280", "small, 280, 350", "posthog8k, 7600, 8800", "wide10, 220, 340",
        "wide100, 2500, 3300", "wide1000, 25000, 29000"})
    void sizesStayInTheirBand(String name, int low, int high) throws Exception {
        double mean = meanSize(Corpus.named(name));
        assertTrue(mean >= low && mean <= high, name + ": mean " + mean + " bytes, not in " + low + ".." + high);
    }

    @ParameterizedTest
    @ValueSource(strings = {"posthog", "small", "posthog8k", "wide10", "wide100", "wide1000"})
    void theSameIdGivesTheSameBytesAndOtherIdsOthers(String name) {
        Corpus a = Corpus.named(name);
        Corpus b = Corpus.named(name);
        Set<String> seen = new HashSet<>();
        for (long id = 0; id < 50; id++) {
            assertArrayEquals(a.event(id), b.event(id), name + " event " + id);
            assertTrue(seen.add(new String(a.event(id))), name + " event " + id + " repeats an earlier one");
        }
    }

    @Test
    void theExistingCorporaKeepTheirBytes() {
        // Every figure measured on these two corpora was measured on these bytes (CRC-32 of events 0..9,999, taken
        // from the generators as they were when the figures were): a change to them would move the figures.
        assertEquals(0xb67a9b55L, crc(Corpus.named("posthog"), 10_000));
        assertEquals(0x344c2d21L, crc(Corpus.named("small"), 10_000));
    }

    private static long crc(Corpus corpus, int n) {
        CRC32 crc = new CRC32();
        for (int i = 0; i < n; i++) {
            crc.update(corpus.event(i));
        }
        return crc.getValue();
    }

    @Test
    void theLargeEventsHaveThePostHogEventsTopLevelKeys() throws Exception {
        List<String> expected = keys(parse(PostHogEvents.event(1)));
        for (long id = 0; id < SAMPLE; id++) {
            JsonNode event = parse(LargePostHogEvents.event(id));
            assertEquals(expected, keys(event));
            assertEquals(JsonNodeType.OBJECT, event.get("properties").getNodeType());
            assertTrue(event.get("properties").size() >= 80, "properties has " + event.get("properties").size());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 10, 100, 1000})
    void wideEventsHaveExactlyTheirColumnsEachOfOneType(int columns) throws Exception {
        Corpus corpus = Corpus.named("wide" + columns);
        Map<String, String> types = new HashMap<>();
        List<String> first = null;
        for (long id = 0; id < SAMPLE; id++) {
            JsonNode event = parse(corpus.event(id));
            List<String> keys = keys(event);
            assertEquals(columns, keys.size());
            if (first == null) {
                first = keys;
            }
            assertEquals(first, keys, "every event has the same keys in the same order");
            for (Iterator<Map.Entry<String, JsonNode>> it = event.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                if (!f.getValue().isNull()) {
                    String kind = kindOf(f.getValue());
                    String before = types.putIfAbsent(f.getKey(), kind);
                    assertTrue(before == null || before.equals(kind), f.getKey() + " is " + before + " and " + kind);
                }
            }
        }
        Set<String> folded = new HashSet<>();
        for (String key : first) {
            assertTrue(Identifiers.isSafe(key), key + " would not become a column");
            assertTrue(folded.add(key.toLowerCase(Locale.ROOT)), key + " repeats case-insensitively");
        }
        assertEquals(List.of("id", "timestamp"), first.subList(0, 2));
    }

    /** The type a column would get from the value: JSON's own, with integers and fractions apart. */
    private static String kindOf(JsonNode v) {
        return v.isIntegralNumber() ? "integer" : v.isNumber() ? "fraction" : v.getNodeType().name();
    }

    @Test
    void wideEventsMixEveryKindOfValue() throws Exception {
        int strings = 0;
        int timestamps = 0;
        int ints = 0;
        int doubles = 0;
        int booleans = 0;
        int nulls = 0;
        for (long id = 0; id < 20; id++) {
            for (Iterator<JsonNode> it = parse(WideEvents.event(id, 1000)).elements(); it.hasNext(); ) {
                JsonNode v = it.next();
                if (v.isNull()) {
                    nulls++;
                } else if (v.isTextual() && v.asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}\\+00:00")) {
                    timestamps++;
                } else if (v.isTextual()) {
                    strings++;
                } else if (v.isIntegralNumber()) {
                    ints++;
                } else if (v.isDouble()) {
                    doubles++;
                } else if (v.isBoolean()) {
                    booleans++;
                }
            }
        }
        int total = 20 * 1000;
        assertEquals(total, strings + timestamps + ints + doubles + booleans + nulls, "only flat values");
        for (int count : new int[] {strings, timestamps, ints, doubles, booleans, nulls}) {
            assertTrue(count > total / 50, "each kind is at least 2 % of the values: strings " + strings
                    + ", timestamps " + timestamps + ", ints " + ints + ", doubles " + doubles + ", booleans "
                    + booleans + ", nulls " + nulls);
        }
    }

    @Test
    void aNarrowerWideCorpusIsTheFirstColumnsOfAWiderOne() throws Exception {
        assertEquals(keys(parse(WideEvents.event(7, 10))), keys(parse(WideEvents.event(7, 100))).subList(0, 10));
    }

    @Test
    void anUnknownNameIsRefusedNamingTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Corpus.named("huge"));
        assertTrue(e.getMessage().contains("posthog8k") && e.getMessage().contains("wide<N>"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Corpus.named("wide1"));
        assertFalse(Corpus.named("wide10").description().isEmpty());
    }
}
