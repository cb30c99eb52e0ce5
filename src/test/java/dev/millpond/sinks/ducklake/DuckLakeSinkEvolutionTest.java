package dev.millpond.sinks.ducklake;

import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Schema evolution on the real stack: ADD COLUMN, SET DATA TYPE widenings, refusals counted, cache reset. */
@ServiceBacked
class DuckLakeSinkEvolutionTest {

    @Test
    void newKeysAreAddedAndNarrowLiveColumnsWidened() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            // A table created elsewhere with types the converter never emits, so widening can succeed.
            f.execute("CREATE TABLE lake.main.events (id INTEGER, score FLOAT, name VARCHAR, _inserted_at TIMESTAMPTZ)");
            DuckLakeSink sink = f.sink();

            sink.write(f.batch("{\"id\":3000000000,\"score\":1.25,\"name\":\"x\",\"extra\":true}"));

            assertThat(f.columnTypes()).containsEntry("id", "BIGINT").containsEntry("score", "DOUBLE")
                    .containsEntry("extra", "BOOLEAN");
            assertThat(f.counter("millpond.schema.columns.widened", null, null)).isEqualTo(2);
            assertThat(f.counter("millpond.schema.columns.added", null, null)).isEqualTo(1);
            assertThat(f.rows("SELECT id, score, name, extra FROM lake.events")).containsExactly("3000000000|1.25|x|true");
            assertThat(f.errors("schema")).isZero();
        }
    }

    @Test
    void aRefusedTypeChangeIsCountedOnEveryFlushAndTheValueCastToTheLiveType() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink();
            sink.write(f.batch("{\"name\":\"first\"}"));

            sink.write(f.batch("{\"name\":5}"));
            sink.write(f.batch("{\"Name\":6}"));

            assertThat(f.columnTypes()).containsExactly(
                    org.assertj.core.api.Assertions.entry("name", "VARCHAR"),
                    org.assertj.core.api.Assertions.entry("_inserted_at", "TIMESTAMP WITH TIME ZONE"));
            assertThat(f.errors("schema")).isEqualTo(2);
            assertThat(f.errors("column_coercion")).isZero();
            assertThat(f.rows("SELECT name FROM lake.events ORDER BY name")).containsExactly("5", "6", "first");
        }
    }

    @Test
    void aColumnAddedConcurrentlyWithAnotherTypeKeepsTheLiveType() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink();
            sink.write(f.batch("{\"id\":1}"));
            // Another pod adds the column first, as text; this sink's cached schema does not know it yet.
            f.execute("ALTER TABLE lake.main.events ADD COLUMN tag VARCHAR");

            sink.write(f.batch("{\"id\":2,\"tag\":true}"));

            assertThat(f.columnTypes()).containsEntry("tag", "VARCHAR");
            assertThat(f.errors("schema")).isEqualTo(1);
            assertThat(f.counter("millpond.schema.columns.added", null, null)).isZero();
            assertThat(f.rows("SELECT id, tag FROM lake.events ORDER BY id")).containsExactly("1|null", "2|true");
        }
    }

    @Test
    void aRetryRereadsTheCatalogSoARecreatedTableIsFound() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink();
            sink.write(f.batch("{\"id\":1}"));
            f.execute("DROP TABLE lake.main.events");

            // The cached "table ensured" state makes this attempt fail, as a stale pod would; the pump then retries.
            assertThatThrownBy(() -> sink.write(f.batch("{\"id\":2}"))).isInstanceOf(java.sql.SQLException.class);
            assertThat(sink.write(f.batch("{\"id\":3,\"more\":\"m\"}"), 2)).isEqualTo(1);

            assertThat(f.rows("SELECT id, more FROM lake.events")).containsExactly("3|m");
        }
    }
}
