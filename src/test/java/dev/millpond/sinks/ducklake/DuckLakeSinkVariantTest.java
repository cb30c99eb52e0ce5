package dev.millpond.sinks.ducklake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.millpond.testsupport.HostileProperties;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.VariantOracle;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MILLPOND_VARIANT_COLUMNS on DuckLake: each configured source also lands in a VARIANT companion, cast from its JSON
 * text, with the rules that keep the dual-write from ever failing a flush on data.
 */
@ServiceBacked
class DuckLakeSinkVariantTest {

    private static final List<String> PROPS = List.of("props", "person");

    @Test
    void theSourceStaysTextAndItsCompanionIsAQueryableVariant() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.settings(Optional.empty(), Optional.empty(), PROPS));

            sink.write(f.batch("{\"n\":1,\"props\":{\"$browser\":\"Chrome\",\"k\":[1,2.5,null]}}",
                    "{\"n\":2,\"props\":\"{broken\"}",
                    "{\"n\":3,\"props\":\"{\\\"$browser\\\":\\\"Firefox\\\"}\"}",
                    "{\"n\":4}"));

            assertThat(f.columnTypes()).containsEntry("props", "VARCHAR").containsEntry("props_variant", "VARIANT")
                    .doesNotContainKey("person_variant");
            assertThat(f.rows("SELECT props, props_variant.\"$browser\"::VARCHAR, props_variant IS NULL"
                    + " FROM lake.events ORDER BY n")).containsExactly(
                    "{\"$browser\":\"Chrome\",\"k\":[1,2.5,null]}|Chrome|false",
                    "{broken|null|true",
                    "{\"$browser\":\"Firefox\"}|Firefox|false",
                    "null|null|true");
            assertThat(f.errors("schema")).isZero();
            // The companion is a verified ADD COLUMN like any other; the table was created with the batch's columns.
            assertThat(f.counter("millpond.schema.columns.added", null, null)).isEqualTo(1);
        }
    }

    @Test
    void windowIntegersBecomeStringsInTheCompanionOnlyOnTheInlinedAndTheFilePath() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.settings(Optional.empty(), Optional.empty(), PROPS));
            String hazard = "{\"a\":9223372036854775808,\"b\":[1,{\"c\":[18446744073709551615]}],"
                    + "\"s\":\"9223372036854775808\",\"m\":-9223372036854775809,\"x\":9223372036854775807,"
                    + "\"y\":18446744073709551616}";
            // Ten rows or fewer are inlined into the catalog; more go to a parquet file.
            for (int rows : new int[] {3, 40}) {
                List<String> records = new ArrayList<>();
                for (int i = 0; i < rows; i++) {
                    records.add("{\"n\":" + i + ",\"props\":" + (i % 2 == 0 ? hazard : "{\"$browser\":\"Edge\"}") + "}");
                }
                sink.write(f.batch(records.toArray(String[]::new)));
            }
            f.execute("CALL ducklake_flush_inlined_data('lake')");

            List<String> rows = f.rows("SELECT props, props_variant::JSON FROM lake.events");
            assertThat(rows).hasSize(43);
            for (String row : rows) {
                String[] parts = row.split("\\|", 2);
                assertThat(VariantOracle.matches(VariantOracle.expected(parts[0]).orElseThrow(),
                        VariantOracle.parse(parts[1]))).as(row).isTrue();
            }
            assertThat(rows).filteredOn(r -> r.startsWith("{\"a\"")).hasSize(2 + 20)
                    .allMatch(r -> r.startsWith(hazard + "|"))
                    .allMatch(r -> r.contains("\"a\":\"9223372036854775808\"") && r.contains("[\"18446744073709551615\"]"));
            assertThat(f.counter("millpond.variant.values.coerced", null, null)).isEqualTo(22);
            assertThat(f.counter("millpond.variant.write.fallback", null, null)).isZero();
            assertThat(f.errors("variant_write")).isZero();
        }
    }

    @Test
    void payloadKeysNamedLikeACompanionAreStrippedInAnyCasingAndABatchOfOnlyThoseIsSkipped() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.settings(Optional.empty(), Optional.empty(), PROPS));

            sink.write(f.batch("{\"n\":1,\"props\":{\"a\":1},\"Props_VARIANT\":\"poison\",\"PERSON_variant\":2}"));
            long skipped = sink.write(f.batch("{\"pRoPs_VaRiAnT\":\"poison\"}", "{\"props_variant\":{\"a\":2}}"));

            assertThat(skipped).isZero();
            assertThat(f.rows("SELECT n, props, props_variant::JSON FROM lake.events")).containsExactly(
                    "1|{\"a\":1}|{\"a\":1}");
            assertThat(f.columnTypes()).containsOnlyKeys("n", "props", "props_variant", "_inserted_at");
            // Two in the first flush; the second flush's two spellings are one column (the first spelling wins).
            assertThat(f.counter("millpond.variant.companion.columns.dropped", null, null)).isEqualTo(3);
            assertThat(f.skipped("variant_companion_collision")).isEqualTo(2);
        }
    }

    @Test
    void aPodWithoutTheSettingNeverWritesIntoALiveVariantColumn() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            f.sink(f.settings(Optional.empty(), Optional.empty(), PROPS)).write(f.batch("{\"n\":1,\"props\":{\"a\":1}}"));
            DuckLakeSink stale = f.sink();

            stale.write(f.batch("{\"n\":2,\"props\":{\"a\":2},\"PROPS_VARIANT\":\"{\\\"a\\\":99}\"}"));

            assertThat(f.rows("SELECT n, props_variant::JSON FROM lake.events ORDER BY n")).containsExactly(
                    "1|{\"a\":1}", "2|null");
            assertThat(f.counter("millpond.variant.companion.columns.dropped", null, null)).isEqualTo(1);
        }
    }

    @Test
    void aCompanionThatExistsAsTextLeavesItsSourceStringOnlyAndIsCountedWhileItLasts() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            f.execute("CREATE TABLE lake.main.events (props VARCHAR, props_variant VARCHAR, _inserted_at TIMESTAMPTZ)");
            DuckLakeSink sink = f.sink(f.settings(Optional.empty(), Optional.empty(), PROPS));

            sink.write(f.batch("{\"props\":\"{}\",\"Props_Variant\":\"poison\"}"));
            sink.write(f.batch("{\"props\":{\"a\":1},\"person\":{\"b\":2}}"));

            assertThat(f.rows("SELECT props, props_variant FROM lake.events ORDER BY props")).containsExactly(
                    "{\"a\":1}|null", "{}|null");
            assertThat(f.columnTypes()).containsEntry("props_variant", "VARCHAR").containsEntry("person_variant",
                    "VARIANT");
            assertThat(f.rows("SELECT person_variant::JSON FROM lake.events WHERE person IS NOT NULL"))
                    .containsExactly("{\"b\":2}");
            assertThat(f.counter("millpond.variant.companion.columns.dropped", null, null)).isEqualTo(1);
            // One per flush that carries the source, while the text companion is there.
            assertThat(f.errors("schema")).isEqualTo(2);
        }
    }

    @Test
    void anOverflowTheTextScanCannotSeeIsWrittenAgainWithoutCompanions() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.settings(Optional.empty(), Optional.empty(), PROPS));
            int rows = 20;
            VectorSchemaRoot root = unsignedProps(f, rows);

            long written = sink.write(f.own(root));

            assertThat(written).isEqualTo(rows);
            assertThat(f.count("SELECT count(*) FROM lake.events WHERE props_variant IS NULL")).isEqualTo(rows);
            assertThat(f.rows("SELECT DISTINCT props::VARCHAR FROM lake.events")).containsExactly("9223372036854775808");
            assertThat(f.counter("millpond.variant.write.fallback", null, null)).isEqualTo(1);
            assertThat(f.errors("variant_write")).isEqualTo(1);
        }
    }

    @Test
    void onlyTheOverflowIsAnsweredByTheStringOnlyRetryAndEveryOtherFailureGoesToTheLadder() {
        assertThat(CompanionFailure.isOverflow(new RuntimeException("wrapped", new SQLException("Invalid Input Error:"
                + " Type UINT64 with value 9223372036854775808 can't be cast because the value is out of range for the"
                + " destination type INT64")))).isTrue();
        for (String other : List.of("Out of Memory Error: failed to allocate data of size 1.0 MiB (185.1 MiB/186.0 MiB"
                        + " used)", "Not implemented Error: Error while casting - duplicate name \"a\" in struct",
                "Invalid Input Error: Could not parse type string 'STRUCT(metadata BLOB, \"value\" BLOB)'",
                "TransactionContext Error: Failed to commit: Failed to commit DuckLake transaction.",
                "TransactionContext Error: Failed to commit: Transaction conflict",
                "IO Error: Could not establish connection", "HTTP 503 Service Unavailable")) {
            assertThat(CompanionFailure.isOverflow(new SQLException(other))).as(other).isFalse();
        }
    }

    @Test
    void shapesDuckDbCannotWriteFaithfullyGetACountedNullCompanionAndNeverFailTheFlush() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.settings(Optional.empty(), Optional.empty(), PROPS));
            String deep = "[".repeat(300) + "1" + "]".repeat(300);
            Map<String, String> reasons = Map.of("{\"a\":1,\"A\":2}", "duplicate_key", "{\"b\":{\"x\":1,\"x\":2}}",
                    "duplicate_key", "{\"\":1}", "empty_key", "{\"a\":{\"\":1}}", "empty_key", "{\"d\":" + deep + "}",
                    "too_deep");
            List<String> faithful = List.of("[1,\"a\",{}]", "{\"a\":[1,\"x\"],\"A1\":{}}");
            int n = 0;
            List<String> shapes = new ArrayList<>(reasons.keySet());
            shapes.addAll(faithful);
            for (String shape : shapes) {
                for (int rows : new int[] {1, 12}) {
                    List<String> records = new ArrayList<>();
                    for (int i = 0; i < rows; i++) {
                        records.add("{\"n\":" + n++ + ",\"props\":" + HostileProperties.quote(shape) + "}");
                    }
                    assertThat(sink.write(f.batch(records.toArray(String[]::new)))).as(shape).isEqualTo(rows);
                }
            }

            assertThat(f.count("SELECT count(*) FROM lake.events")).isEqualTo(n);
            for (String row : f.rows("SELECT props, props_variant::JSON FROM lake.events")) {
                String[] parts = row.split("\\|", 2);
                if (reasons.containsKey(parts[0])) {
                    assertThat(parts[1]).as(parts[0]).isEqualTo("null");
                } else {
                    assertThat(VariantOracle.matches(VariantOracle.expected(parts[0]).orElseThrow(),
                            VariantOracle.parse(parts[1]))).as(row).isTrue();
                }
            }
            assertThat(f.nulled("props_variant", "duplicate_key")).isEqualTo(26);
            assertThat(f.nulled("props_variant", "empty_key")).isEqualTo(26);
            assertThat(f.nulled("props_variant", "too_deep")).isEqualTo(13);
            assertThat(f.counter("millpond.variant.write.fallback", null, null)).isZero();
            assertThat(f.errors("variant_write")).isZero();
        }
    }

    /**
     * Property over generated properties values, in flushes of every size (inlined and not), some records carrying a
     * colliding key: every record is one row, its source text is what it sent, and its companion is the source's JSON
     * with window integers as strings, or NULL exactly when the source is not JSON. No flush fails.
     */
    @Test
    void everyGeneratedPropertiesValueLandsOnceWithAFaithfulCompanion() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.settings(Optional.empty(), Optional.empty(), List.of("properties")));
            Random random = new Random(19);
            HostileProperties generator = new HostileProperties(random);
            List<HostileProperties.Value> sent = new ArrayList<>();
            int id = 0;
            for (int size : new int[] {1, 7, 10, 11, 150, 400, 3}) {
                List<String> records = new ArrayList<>();
                for (int i = 0; i < size; i++) {
                    HostileProperties.Value v = generator.next();
                    sent.add(v);
                    records.add("{\"id\":" + id++ + ",\"properties\":" + v.json()
                            + (random.nextInt(8) == 0 ? ",\"" + generator.collidingKey("properties") + "\":1" : "")
                            + "}");
                }
                assertThat(sink.write(f.batch(records.toArray(String[]::new)))).isEqualTo(size);
            }
            f.execute("CALL ducklake_flush_inlined_data('lake')");

            Map<Long, String[]> byId = new java.util.HashMap<>();
            for (String row : f.rows("SELECT id, properties, properties_variant::JSON FROM lake.events")) {
                String[] parts = row.split("\\|", 3);
                assertThat(byId.put(Long.parseLong(parts[0]), parts)).as("id %s once", parts[0]).isNull();
            }
            assertThat(byId).hasSize(sent.size());
            long expectedCoerced = 0;
            for (int i = 0; i < sent.size(); i++) {
                HostileProperties.Value v = sent.get(i);
                String[] row = byId.get((long) i);
                String source = row[1];
                if (v.asString()) {
                    assertThat(source).as("id %d source bytes", i).isEqualTo(v.text());
                } else {
                    assertThat(VariantOracle.matches(VariantOracle.parse(v.text()), VariantOracle.parse(source)))
                            .as("id %d source %s sent as %s", i, source, v.text()).isTrue();
                }
                Optional<JsonNode> expected = VariantOracle.expected(v.valid() ? source : null);
                if (expected.isEmpty()) {
                    assertThat(row[2]).as("id %d companion of %s", i, source).isEqualTo("null");
                } else {
                    assertThat(VariantOracle.matches(expected.get(), VariantOracle.parse(row[2])))
                            .as("id %d companion %s of %s", i, row[2], source).isTrue();
                }
                // Only JSON is rewritten (and counted): text that is not JSON keeps a NULL companion.
                expectedCoerced += v.valid() && hasWindowInteger(source) ? 1 : 0;
            }
            assertThat(f.counter("millpond.variant.values.coerced", null, null)).isEqualTo(expectedCoerced);
            assertThat(expectedCoerced).as("the generator reaches the window").isGreaterThan(50);
            assertThat(f.counter("millpond.variant.write.fallback", null, null)).isZero();
        }
    }

    private static boolean hasWindowInteger(String json) {
        JsonNode tree = VariantOracle.parse(json);
        return tree != null && anyWindow(tree);
    }

    private static boolean anyWindow(JsonNode node) {
        if (node.isBigInteger() && VariantOracle.inWindow(node.bigIntegerValue())) {
            return true;
        }
        for (JsonNode child : node) {
            if (anyWindow(child)) {
                return true;
            }
        }
        return false;
    }

    /** {@code props} as a UBIGINT column holding 2^63: what a typed producer could send, out of the text scan's reach. */
    private static VectorSchemaRoot unsignedProps(SinkFixture f, int rows) {
        UInt8Vector props = new UInt8Vector("props", f.allocator);
        BigIntVector n = new BigIntVector("n", f.allocator);
        props.allocateNew(rows);
        n.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            props.set(i, Long.MIN_VALUE);
            n.set(i, i);
        }
        props.setValueCount(rows);
        n.setValueCount(rows);
        return new VectorSchemaRoot(List.<FieldVector>of(n, props));
    }
}
