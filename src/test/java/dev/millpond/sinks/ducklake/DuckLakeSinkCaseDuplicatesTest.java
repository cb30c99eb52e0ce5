package dev.millpond.sinks.ducklake;

import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys differing only in case on DuckLake, the reference for the rule both sinks share
 * ({@link dev.millpond.vocabulary.ColumnNames}); {@code HoglakeSinkTest} runs the same records on hoglake.
 */
@ServiceBacked
class DuckLakeSinkCaseDuplicatesTest {

    @Test
    void theFirstSpellingIsTheColumnLaterOnesAreDroppedPerFlushAndTheRowsKept() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink();
            // {"a":1,"A":2}: a wins (first in the batch's column order), A is dropped for the whole flush — also
            // from id 2, which has only A — counted once; both rows land.
            assertThat(sink.write(f.batch("{\"id\":1,\"a\":1,\"A\":2}", "{\"id\":2,\"A\":3}"))).isEqualTo(2);
            assertThat(f.skipped("duplicate_field_name")).isEqualTo(1);
            // A later flush with only A: it is the live column a (DuckDB matches names ignoring case).
            assertThat(sink.write(f.batch("{\"id\":3,\"A\":4}"))).isEqualTo(1);
            assertThat(f.skipped("duplicate_field_name")).isEqualTo(1);

            assertThat(f.columnTypes()).containsKey("a").doesNotContainKey("A");
            assertThat(f.rows("SELECT id, a FROM lake.events ORDER BY id")).containsExactly("1|1", "2|null", "3|4");
        }
    }
}
