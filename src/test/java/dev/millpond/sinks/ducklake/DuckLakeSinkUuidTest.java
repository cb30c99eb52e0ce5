package dev.millpond.sinks.ducklake;

import dev.millpond.testsupport.ServiceBacked;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.memory.BufferAllocator;
import dev.millpond.vocabulary.UuidVector;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The spec's uuid "live column wins" rule on DuckLake, both directions (ducklake._align_uuid_columns). */
@ServiceBacked
class DuckLakeSinkUuidTest {

    private static final String CANONICAL = "01234567-89ab-cdef-0123-456789abcdef";

    @Test
    void textIntoALiveUuidColumnIsParsedWithThePinGrammarAndTheRestNulled() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            f.execute("CREATE TABLE lake.main.events (n BIGINT, id UUID, _inserted_at TIMESTAMPTZ)");
            DuckLakeSink sink = f.sink();

            long written = sink.write(f.batch(
                    "{\"n\":1,\"id\":\"" + CANONICAL + "\"}",
                    "{\"n\":2,\"id\":\"01234567-89AB-CDEF-0123-456789ABCDEF\"}",
                    "{\"n\":3,\"id\":\"0123456789abcdef0123456789abcdef\"}",
                    "{\"n\":4,\"id\":\"{" + CANONICAL + "}\"}",
                    "{\"n\":5,\"id\":\"urn:uuid:" + CANONICAL + "\"}",
                    "{\"n\":6,\"id\":\"{0123456789abcdef0123456789abcdef}\"}",
                    "{\"n\":7,\"id\":\"URN:UUID:" + CANONICAL + "\"}",
                    "{\"n\":8,\"id\":\"0123-4567-89ab-cdef-0123-4567-89ab-cdef\"}",
                    "{\"n\":9,\"id\":\"urn:uuid:{" + CANONICAL + "}\"}",
                    "{\"n\":10,\"id\":\"nope\"}",
                    "{\"n\":11,\"id\":null}"));

            assertThat(written).isEqualTo(11);
            assertThat(f.rows("SELECT id FROM lake.events ORDER BY n")).containsExactly(
                    CANONICAL, CANONICAL, CANONICAL, CANONICAL, CANONICAL, CANONICAL,
                    "null", "null", "null", "null", "null");
            assertThat(f.errors("column_coercion")).isEqualTo(1);
            // The batch's VARCHAR cannot replace the live UUID: one refused ALTER per flush.
            assertThat(f.errors("schema")).isEqualTo(1);
            assertThat(f.columnTypes()).containsEntry("id", "UUID");
        }
    }

    @Test
    void aUuidBatchIntoALiveTextColumnLandsAsCanonicalText() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            f.execute("CREATE TABLE lake.main.events (id VARCHAR, _inserted_at TIMESTAMPTZ)");
            DuckLakeSink sink = f.sink();
            UUID upper = UUID.fromString("FFFFFFFF-0000-4000-8000-00000000000A");

            sink.write(f.own(uuidBatch(f.allocator, "id", Arrays.asList(UUID.fromString(CANONICAL), upper, null))));

            assertThat(f.rows("SELECT id FROM lake.events ORDER BY id NULLS LAST")).containsExactly(
                    CANONICAL, "ffffffff-0000-4000-8000-00000000000a", "null");
            assertThat(f.errors("schema")).isEqualTo(1);
            assertThat(f.errors("column_coercion")).isZero();
            assertThat(f.columnTypes()).containsEntry("id", "VARCHAR");
        }
    }

    @Test
    void aUuidBatchCreatesANativeUuidColumn() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink();

            sink.write(f.own(uuidBatch(f.allocator, "id", Arrays.asList(UUID.fromString(CANONICAL)))));

            assertThat(f.columnTypes()).containsEntry("id", "UUID");
            assertThat(f.rows("SELECT id FROM lake.events")).containsExactly(CANONICAL);
        }
    }

    /** A one-column batch of the production uuid type ({@code arrow.uuid}); null entries become nulls. */
    private static VectorSchemaRoot uuidBatch(BufferAllocator allocator, String column, List<UUID> values) {
        UuidVector v = new UuidVector(column, allocator);
        v.getUnderlyingVector().allocateNew(values.size());
        for (int i = 0; i < values.size(); i++) {
            UUID u = values.get(i);
            if (u == null) {
                v.getUnderlyingVector().setNull(i);
            } else {
                v.setSafe(i, u.getMostSignificantBits(), u.getLeastSignificantBits());
            }
        }
        v.setValueCount(values.size());
        return new VectorSchemaRoot(List.of(v.getField()), List.<FieldVector>of(v), values.size());
    }
}
