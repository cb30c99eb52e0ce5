package dev.millpond.sinks.ducklake;

import dev.millpond.config.LandingLimits;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Flushes with rows and no column to insert them into. Either every column was dropped by design (reserved names,
 * VARIANT companion collisions; counted): then the rows are skipped and the flush's offsets still land in the lake.
 * Or every column was refused by the table (its width bound reached by another writer, a refused ADD COLUMN): then
 * the rows cannot land and the attempt fails, so nothing is committed and the records stay in Kafka.
 */
@ServiceBacked
class DuckLakeSinkNothingToInsertTest {

    private static final String GROUP = "millpond-t-events";

    @Test
    void aFlushWhoseEveryColumnTheTableRefusesFailsAndRecordsNothing() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            // Another writer already took the table to its bound: a, b and _inserted_at.
            f.sink().write(f.batch("{\"a\":1,\"b\":2}"));
            DuckLakeSinkSettings s = f.recordingOffsets(GROUP);
            DuckLakeSink sink = f.sink(new DuckLakeSinkSettings(s.connection(), s.catalog(), s.dataPath(), s.schema(),
                    s.table(), s.s3Settings(), s.maxRetryCount(), s.memoryLimit(), s.partitionBy(), s.variantSources(),
                    s.extensionDirectory(), s.lakeOffsetsGroupId(), new LandingLimits(3, 100, true, 64)));
            FlushBatch flush = withRanges(f.batch("{\"c\":1,\"d\":2}", "{\"c\":3}"), new OffsetRange("t", 0, 10, 11));

            for (int attempt = 1; attempt <= 2; attempt++) {
                int a = attempt;
                assertThatThrownBy(() -> sink.write(flush, a)).isInstanceOf(SQLException.class)
                        .hasMessageContaining("None of the 2 column(s) of this 2-row flush");
            }

            assertThat(f.count("SELECT count(*) FROM lake.main.events")).isEqualTo(1);
            assertThat(sink.recordedOffsets("t").orElseThrow()).as("no offsets: Kafka must not move on").isEmpty();
            assertThat(f.errors("schema")).isPositive();
        }
    }

    @Test
    void aFlushWhoseEveryColumnIsReservedIsSkippedAndItsOffsetsStillLand() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.recordingOffsets(GROUP));
            sink.write(withRanges(f.batch("{\"id\":1}"), new OffsetRange("t", 0, 0, 4)));

            long written = sink.write(withRanges(f.batch("{\"year\":2024}", "{\"Year\":2025}"),
                    new OffsetRange("t", 0, 5, 7)));

            assertThat(written).isZero();
            assertThat(f.skipped("reserved_field_name")).as("one per column").isEqualTo(2);
            assertThat(f.count("SELECT count(*) FROM lake.main.events")).isEqualTo(1);
            assertThat(sink.recordedOffsets("t").orElseThrow()).as("the skipped records' offsets are in the lake")
                    .isEqualTo(Map.of(0, 8L));
        }
    }

    @Test
    void aFlushOfOnlyVariantCompanionCollisionsIsCountedAsTheOriginalDoesAndItsOffsetsStillLand() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSinkSettings s = f.settings(Optional.empty(), Optional.empty(), List.of("props"));
            DuckLakeSink sink = f.sink(new DuckLakeSinkSettings(s.connection(), s.catalog(), s.dataPath(), s.schema(),
                    s.table(), s.s3Settings(), s.maxRetryCount(), s.memoryLimit(), s.partitionBy(), s.variantSources(),
                    s.extensionDirectory(), Optional.of(GROUP)));

            long written = sink.write(withRanges(f.batch("{\"props_variant\":\"x\"}", "{\"props_variant\":\"y\"}"),
                    new OffsetRange("t", 2, 40, 41)));

            assertThat(written).isZero();
            assertThat(f.skipped("variant_companion_collision")).isEqualTo(2);
            assertThat(sink.recordedOffsets("t").orElseThrow()).isEqualTo(Map.of(2, 42L));
        }
    }

    private static FlushBatch withRanges(FlushBatch batch, OffsetRange... ranges) {
        return new FlushBatch(batch.schema(), batch.batches(), batch.rows(), List.of(ranges));
    }
}
