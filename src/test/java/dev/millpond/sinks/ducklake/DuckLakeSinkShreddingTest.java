package dev.millpond.sinks.ducklake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.millpond.testsupport.events.VariantPostHogEvents;
import dev.millpond.testsupport.HostileProperties;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.VariantOracle;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * VARIANT companions under a DuckDB memory limit far below what shredding every key path of a flush would take
 * (DuckDB 1.5.5 holds each shredded parquet column's 1 MiB string dictionary): the flush is written in INSERTs whose
 * analysed rows fit, every companion equal to its source, no string-only fallback.
 */
@ServiceBacked
class DuckLakeSinkShreddingTest {

    private static final List<String> SOURCES = List.of("properties", "person_properties");

    @Test
    void hostilePostHogEventsKeepEveryCompanionAtThePodsDuckDbShare() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            // DuckDB's share of the 1 GiB pod with two companions; the table's row group as with companions.
            DuckLakeSink sink = f.sink(settings(f, "440MiB", 2048));
            List<String> records = new ArrayList<>();
            for (int i = 0; i < 6_000; i++) {
                records.add(new String(VariantPostHogEvents.event(i), java.nio.charset.StandardCharsets.UTF_8));
            }

            assertThat(sink.write(f.batch(records.toArray(String[]::new)), 1)).isEqualTo(records.size());

            assertThat(unfaithful(f, "uuid", SOURCES)).isEmpty();
            assertThat(nulledRows(f)).isZero();
            assertThat(f.counter("millpond.variant.write.fallback", null, null)).isZero();
            assertThat(f.count("SELECT count(*) FROM ducklake_list_files('lake', 'events')")).isEqualTo(1);
        }
    }

    @Test
    void aLongTailOfDeepHostileValuesIsWrittenOrCountedNeverFailed() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(settings(f, "300MiB", 256));
            Random random = new Random(3);
            HostileProperties generator = new HostileProperties(random);
            for (int flush = 0; flush < 3; flush++) {
                List<String> records = new ArrayList<>();
                for (int i = 0; i < (flush == 1 ? 40 : 1_500); i++) {
                    records.add("{\"id\":" + (flush * 10_000 + i) + ",\"properties\":" + generator.next().json()
                            + ",\"person_properties\":" + generator.next().json() + "}");
                }
                assertThat(sink.write(f.batch(records.toArray(String[]::new)), 1)).isEqualTo(records.size());
            }

            List<String> unfaithful = unfaithful(f, "id", SOURCES);
            assertThat(unfaithful).as("every companion that differs from its source is a NULL the metric counts")
                    .allMatch(u -> u.endsWith("-> null")).hasSize((int) nulledRows(f));
            assertThat(f.counter("millpond.variant.write.fallback", null, null)).isZero();
        }
    }

    @Test
    void rowsEachWiderThanTheBudgetInAFlushTooSmallToHideThemGetACountedNullCompanion() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(settings(f, "128MiB", 256));
            List<String> records = new ArrayList<>();
            List<String[]> sent = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                StringBuilder wide = new StringBuilder("{");
                for (int k = 0; k < 200; k++) {
                    wide.append(k == 0 ? "" : ",").append("\"r").append(i).append("_k").append(k).append("\":").append(k);
                }
                String narrow = "{\"plan\":\"free\"}";
                records.add("{\"id\":" + i + ",\"properties\":" + wide + "},\"person_properties\":" + narrow + "}");
                sent.add(new String[] {wide + "}", narrow});
            }

            assertThat(sink.write(f.batch(records.toArray(String[]::new)), 1)).isEqualTo(5);

            assertThat(f.count("SELECT count(*) FROM lake.events WHERE properties_variant IS NULL")).isEqualTo(5);
            assertThat(f.count("SELECT count(*) FROM lake.events WHERE person_properties_variant IS NULL")).isZero();
            assertThat(f.nulled("properties_variant", "shred_width")).isEqualTo(5);
            assertThat(f.rows("SELECT properties FROM lake.events ORDER BY id")).containsExactlyElementsOf(
                    sent.stream().map(s -> s[0]).toList());
        }
    }

    @Test
    void aRetryShredsInSmallerSlicesThanTheFirstAttempt() throws Exception {
        long[] files = new long[2];
        int[] attempts = {1, 3};
        for (int a = 0; a < attempts.length; a++) {
            try (SinkFixture f = new SinkFixture()) {
                DuckLakeSink sink = f.sink(settings(f, "320MiB", 256));
                List<String> records = new ArrayList<>();
                for (int i = 0; i < 60; i++) {
                    StringBuilder props = new StringBuilder("{\"shared\":1");
                    for (int k = 0; k < 12; k++) {
                        props.append(",\"g").append(i % 10).append("_").append(k).append("\":").append(k);
                    }
                    records.add("{\"id\":" + i + ",\"properties\":" + props + "}}");
                }
                assertThat(sink.write(f.batch(records.toArray(String[]::new)), attempts[a])).isEqualTo(60);
                assertThat(f.count("SELECT count(*) FROM lake.events WHERE properties_variant IS NULL")).isZero();
                files[a] = f.count("SELECT count(*) FROM ducklake_list_files('lake', 'events')");
            }
        }
        assertThat(files[1]).isGreaterThan(files[0]);
    }

    /** Two companions, DuckDB at {@code memoryLimit}, the table's row groups at {@code rowGroupRows}. */
    private static DuckLakeSinkSettings settings(SinkFixture f, String memoryLimit, long rowGroupRows) {
        DuckLakeSinkSettings s = f.settings(Optional.empty(), Optional.of(memoryLimit), SOURCES);
        return new DuckLakeSinkSettings(s.connection(), s.catalog(), s.dataPath(), s.schema(), s.table(),
                s.s3Settings(), s.maxRetryCount(), s.memoryLimit(), s.partitionBy(), s.variantSources(),
                s.extensionDirectory(), s.lakeOffsetsGroupId(), s.landing(),
                Optional.of(new DuckDbResources(2, rowGroupRows)));
    }

    /**
     * Rows whose companion is not what their stored source says (its JSON with window integers as strings, or NULL
     * when it is not JSON), one line each: {@code id column: source -> companion}.
     */
    private static List<String> unfaithful(SinkFixture f, String key, List<String> sources) throws Exception {
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
    private static long nulledRows(SinkFixture f) {
        return (long) f.registry.find("millpond.variant.companions.nulled").counters().stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
    }
}
