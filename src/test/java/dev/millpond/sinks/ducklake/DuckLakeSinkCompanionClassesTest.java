package dev.millpond.sinks.ducklake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.millpond.testsupport.events.LargePostHogEvents;
import dev.millpond.testsupport.events.VariantPostHogEvents;
import dev.millpond.memory.ContainerMemory;
import dev.millpond.memory.MemoryBudget;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.VariantOracle;
import io.micrometer.core.instrument.Counter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The classes of input VARIANT dual-write must hold for, each at the DuckDB share the memory budget gives the shipped
 * 1 GiB pod for that many companions: every companion is its source's JSON, or a NULL the metric counts — and for
 * PostHog-shaped events, hostile ones among them, with 1, 2 or 4 companions, never a NULL at all.
 */
@ServiceBacked
class DuckLakeSinkCompanionClassesTest {

    private static final long POD = 1L << 30;
    private static final long POD_HEAP = 206L << 20;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void postHogEventsKeepEveryCompanionWithOneTwoOrFourCompanions(int companions) throws Exception {
        List<String> sources = VariantPostHogEvents.SOURCES.subList(0, companions);
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(podSettings(f, sources));
            List<String> records = new ArrayList<>();
            for (int i = 0; i < 6_000; i++) {
                records.add(new String(VariantPostHogEvents.event(i), StandardCharsets.UTF_8));
            }
            assertThat(sink.write(f.batch(records.toArray(String[]::new)), 1)).isEqualTo(records.size());

            assertThat(unfaithful(f, "uuid", sources)).isEmpty();
            assertThat(nulled(f)).isZero();
            assertThat(f.counter("millpond.variant.write.fallback", null, null)).isZero();
        }
    }

    @Test
    void eightKilobyteEventsAreWrittenOrCounted() throws Exception {
        assertWrittenOrCounted(List.of("properties", "person_properties"), i -> LargePostHogEvents.event(i), 1_500);
    }

    @Test
    void objectsOfTenToFiveHundredKeysAreWrittenOrCounted() throws Exception {
        Random random = new Random(11);
        assertWrittenOrCounted(List.of("properties"), i -> {
            // Mostly a few dozen keys of a shared list, some up to 500: how wide a real properties object gets.
            int keys = random.nextInt(10) == 0 ? 10 + random.nextInt(491) : 10 + random.nextInt(50);
            StringBuilder b = new StringBuilder("{\"id\":").append(i).append(",\"properties\":{");
            for (int k = 0; k < keys; k++) {
                b.append(k == 0 ? "" : ",").append("\"p").append(k).append("\":");
                b.append(k % 3 == 0 ? "\"s" + random.nextInt(100) + "\"" : Integer.toString(random.nextInt(1000)));
            }
            return b.append("}}").toString().getBytes(StandardCharsets.UTF_8);
        }, 4_000);
    }

    private static void assertWrittenOrCounted(List<String> sources, java.util.function.IntFunction<byte[]> events,
                                               int count) throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(podSettings(f, sources));
            List<String> records = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String e = new String(events.apply(i), StandardCharsets.UTF_8);
                // Every event gets an id column the check can key on.
                records.add(e.startsWith("{\"id\":") ? e : "{\"id\":" + i + "," + e.substring(1));
            }
            assertThat(sink.write(f.batch(records.toArray(String[]::new)), 1)).isEqualTo(count);

            List<String> unfaithful = unfaithful(f, "id", sources);
            System.out.printf("[companions] %s: %d of %d companions NULL and counted (%s)%n", sources,
                    unfaithful.size(), count * sources.size(), f.registry.find("millpond.variant.companions.nulled")
                            .counters().stream().map(c -> c.getId().getTag("column") + "/" + c.getId().getTag("reason")
                                    + "=" + (long) c.count()).toList());
            assertThat(unfaithful).as("every companion that differs from its source is a NULL the metric counts")
                    .allMatch(u -> u.endsWith("-> null")).hasSize((int) nulled(f));
            assertThat(f.counter("millpond.variant.write.fallback", null, null)).isZero();
        }
    }

    /** The DuckDB share and row group the memory budget gives the 1 GiB pod for these companions. */
    private static DuckLakeSinkSettings podSettings(SinkFixture f, List<String> sources) {
        MemoryBudget budget = MemoryBudget.plan(Optional.of(new ContainerMemory(POD, "test")), POD_HEAP, 104_857_600,
                2, true, sources.size());
        DuckLakeSinkSettings s = f.settings(Optional.empty(), budget.duckdbMemoryLimit(), sources);
        return new DuckLakeSinkSettings(s.connection(), s.catalog(), s.dataPath(), s.schema(), s.table(),
                s.s3Settings(), s.maxRetryCount(), s.memoryLimit(), s.partitionBy(), s.variantSources(),
                s.extensionDirectory(), s.lakeOffsetsGroupId(), s.landing(),
                Optional.of(new DuckDbResources(2, budget.rowGroupRows())));
    }

    /** Companions that are not their stored source's JSON (or NULL for text that is not JSON): {@code key col: src -> c}. */
    static List<String> unfaithful(SinkFixture f, String key, List<String> sources) throws Exception {
        List<String> wrong = new ArrayList<>();
        for (String source : sources) {
            for (String row : f.rows("SELECT " + key + ", " + source + ", " + source + "_variant IS NULL, " + source
                    + "_variant::JSON FROM lake.events")) {
                String[] parts = row.split("\\|", 4);
                String text = parts[1].equals("null") ? null : parts[1];
                String companion = Boolean.parseBoolean(parts[2]) ? null : parts[3];
                Optional<JsonNode> expected = VariantOracle.expected(text);
                boolean ok = expected.isEmpty() ? companion == null
                        : companion != null && VariantOracle.matches(expected.get(), VariantOracle.parse(companion));
                if (!ok) {
                    wrong.add(parts[0] + " " + source + ": " + text + " -> " + companion);
                }
            }
        }
        return wrong;
    }

    /** {@code millpond_variant_companions_nulled_total} over every column and reason. */
    static long nulled(SinkFixture f) {
        return (long) f.registry.find("millpond.variant.companions.nulled").counters().stream()
                .mapToDouble(Counter::count).sum();
    }
}
