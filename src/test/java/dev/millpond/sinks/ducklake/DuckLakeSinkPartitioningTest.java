package dev.millpond.sinks.ducklake;

import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** DUCKLAKE_PARTITION_BY: Hive-style key=value prefixes in the bucket, for new and existing tables. */
@ServiceBacked
class DuckLakeSinkPartitioningTest {

    private static final Optional<String> YEAR_MONTH = Optional.of("year(_inserted_at), month(_inserted_at)");
    /** Enough rows per flush that DuckLake writes a file rather than inlining them in the catalog. */
    private static final int ROWS = SinkFixture.ABOVE_INLINING_LIMIT;
    private static final String PARTITIONED_FILE = ".*/events/year=\\d{4}/month=\\d{1,2}/[^/]+\\.parquet";

    @Test
    void aNewTableIsPartitionedOnItsFirstWrite() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.settings(YEAR_MONTH, Optional.empty(), List.of()));

            sink.write(f.batch(SinkFixture.ids(0, ROWS)));
            // A retry re-reads the table and applies it again: idempotent, and the next file is still partitioned.
            sink.write(f.batch(SinkFixture.ids(ROWS, 2 * ROWS)), 2);

            List<String> files = f.lake.listDataFiles();
            assertThat(files).hasSize(2).allMatch(k -> k.matches(PARTITIONED_FILE), "under year=/month=");
            assertThat(f.count("SELECT count(*) FROM lake.events")).isEqualTo(2 * ROWS);
        }
    }

    @Test
    void anExistingUnpartitionedTableGetsTheSpecForItsNewFiles() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            f.execute("CREATE TABLE lake.main.events (id BIGINT, _inserted_at TIMESTAMPTZ)");
            f.execute("INSERT INTO lake.main.events SELECT range, now() FROM range(" + ROWS + ")");
            DuckLakeSink sink = f.sink(f.settings(YEAR_MONTH, Optional.empty(), List.of()));

            sink.write(f.batch(SinkFixture.ids(ROWS, 2 * ROWS)));

            List<String> files = f.lake.listDataFiles();
            assertThat(files).filteredOn(k -> k.matches(PARTITIONED_FILE)).hasSize(1);
            assertThat(files).filteredOn(k -> k.matches(".*/events/[^/]+\\.parquet")).hasSize(1);
            assertThat(f.count("SELECT count(*) FROM lake.events")).isEqualTo(2 * ROWS);
        }
    }

    @Test
    void aSpecNamingAMissingColumnLeavesTheTableUnpartitionedButWrites() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.settings(Optional.of("team_id"), Optional.empty(), List.of()));

            assertThat(sink.write(f.batch(SinkFixture.ids(0, ROWS)))).isEqualTo(ROWS);

            assertThat(f.lake.listDataFiles()).singleElement().matches(k -> k.matches(".*/events/[^/]+\\.parquet"));
        }
    }
}
