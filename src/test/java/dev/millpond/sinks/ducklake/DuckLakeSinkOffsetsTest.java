package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.testsupport.Services;
import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The rows of a flush and the Kafka offsets they cover land in one DuckLake snapshot, or neither does. */
@ServiceBacked
class DuckLakeSinkOffsetsTest {

    private static final String GROUP = "millpond-t-events";

    @Test
    void rowsAndTheirOffsetsLandInOneSnapshot() throws Exception {
        try (SinkFixture fixture = new SinkFixture()) {
            DuckLakeSink sink = fixture.sink(fixture.recordingOffsets(GROUP));
            sink.write(withRanges(fixture.batch("{\"id\":1}", "{\"id\":2}"),
                    new OffsetRange("t", 0, 10, 10), new OffsetRange("t", 3, 40, 41)));
            long snapshotsBefore = fixture.count("SELECT count(*) FROM ducklake_snapshots('lake')");

            sink.write(withRanges(fixture.batch("{\"id\":3}"), new OffsetRange("t", 0, 11, 11)));

            assertThat(fixture.count("SELECT count(*) FROM ducklake_snapshots('lake')"))
                    .as("one flush, one snapshot").isEqualTo(snapshotsBefore + 1);
            assertThat(fixture.rows("SELECT table_name, group_id, topic, kafka_partition, next_offset "
                    + "FROM lake.main._millpond_offsets ORDER BY next_offset")).containsExactly(
                    "events|" + GROUP + "|t|0|11", "events|" + GROUP + "|t|0|12", "events|" + GROUP + "|t|3|42");
            assertThat(sink.recordedOffsets("t").orElseThrow()).isEqualTo(Map.of(0, 12L, 3, 42L));
            assertThat(sink.recordedOffsets("other-topic").orElseThrow()).isEmpty();
            assertThat(fixture.count("SELECT count(*) FROM lake.main.events")).isEqualTo(3);
        }
    }

    @Test
    void whenTheOffsetsInsertFailsTheRowsDoNotLandEither() throws Exception {
        try (SinkFixture fixture = new SinkFixture()) {
            DuckLakeSink sink = fixture.sink(fixture.recordingOffsets(GROUP));
            sink.write(withRanges(fixture.batch("{\"id\":1}"), new OffsetRange("t", 0, 0, 0)));
            // Between the sink's ensure and its next write, another hand drops the offsets table.
            fixture.execute("DROP TABLE lake.main._millpond_offsets");

            FlushBatch second = withRanges(fixture.batch("{\"id\":2}", "{\"id\":3}"), new OffsetRange("t", 0, 1, 2));
            assertThatThrownBy(() -> sink.write(second)).isInstanceOf(SQLException.class)
                    .hasMessageContaining(LakeOffsets.TABLE);
            assertThat(fixture.count("SELECT count(*) FROM lake.main.events"))
                    .as("the data insert was rolled back with the offsets insert").isEqualTo(1);

            // The pump's retry ladder: the next attempt; the table is re-created and both land once.
            sink.write(second, 2);
            assertThat(fixture.rows("SELECT id FROM lake.main.events ORDER BY id")).containsExactly("1", "2", "3");
            assertThat(sink.recordedOffsets("t").orElseThrow()).isEqualTo(Map.of(0, 3L));
        }
    }

    @Test
    void aRetryOfAFlushWhoseCommitLandedAfterAllDoesNotWriteItAgain() throws Exception {
        try (SinkFixture fixture = new SinkFixture()) {
            DuckLakeSink sink = fixture.sink(fixture.recordingOffsets(GROUP));
            FlushBatch flush = withRanges(fixture.batch("{\"id\":1}", "{\"id\":2}"), new OffsetRange("t", 0, 0, 1));
            sink.write(flush);
            // As if the COMMIT's reply was lost: the pump saw a failure and retries the same flush.
            assertThat(sink.write(flush, 2)).isEqualTo(2);
            assertThat(fixture.count("SELECT count(*) FROM lake.main.events")).isEqualTo(2);

            FlushBatch next = withRanges(fixture.batch("{\"id\":3}"), new OffsetRange("t", 0, 2, 2));
            sink.write(next, 2);
            assertThat(fixture.count("SELECT count(*) FROM lake.main.events")).as("a new flush is written").isEqualTo(3);
        }
    }

    /**
     * A retry first asks the lake whether the previous attempt's commit landed. When that read fails, the answer is
     * unknown: writing the flush again could land it twice, so the attempt fails instead (the pump's ladder then
     * tries again, or stops without committing).
     */
    @Test
    void aRetryWhoseLandedCheckCannotReadTheOffsetsFailsRatherThanWritingAgain() throws Exception {
        try (SinkFixture fixture = new SinkFixture()) {
            DuckLakeSink sink = fixture.sink(fixture.recordingOffsets(GROUP));
            // More ranges than DuckLake inlines in the catalog, so the offsets rows are a parquet file of their own.
            OffsetRange[] ranges = new OffsetRange[SinkFixture.ABOVE_INLINING_LIMIT];
            for (int p = 0; p < ranges.length; p++) {
                ranges[p] = new OffsetRange("t", p, 0, 0);
            }
            FlushBatch flush = withRanges(fixture.batch("{\"id\":1}", "{\"id\":2}"), ranges);
            sink.write(flush);
            // The commit landed but its reply was lost; now the offsets cannot be read (their file is gone), while
            // an INSERT would still succeed.
            List<String> offsetFiles = fixture.lake.listDataFiles().stream()
                    .filter(k -> k.contains(LakeOffsets.TABLE)).toList();
            assertThat(offsetFiles).hasSize(1);
            Services.s3().client().deleteObject(d -> d.bucket(fixture.lake.bucket()).key(offsetFiles.get(0)));

            assertThatThrownBy(() -> sink.write(flush, 2)).isInstanceOf(SQLException.class);
            assertThat(fixture.count("SELECT count(*) FROM lake.main.events")).as("not written a second time")
                    .isEqualTo(2);
        }
    }

    @Test
    void withLakeOffsetsOffNoOffsetsTableIsCreated() throws Exception {
        try (SinkFixture fixture = new SinkFixture()) {
            DuckLakeSink sink = fixture.sink();
            sink.write(withRanges(fixture.batch("{\"id\":1}"), new OffsetRange("t", 0, 0, 0)));
            assertThat(sink.recordedOffsets("t")).isEmpty();
            assertThat(fixture.count("SELECT count(*) FROM information_schema.tables WHERE table_catalog = 'lake' "
                    + "AND table_name = '" + LakeOffsets.TABLE + "'")).isZero();
            assertThat(fixture.count("SELECT count(*) FROM lake.main.events")).isEqualTo(1);
        }
    }

    private static FlushBatch withRanges(FlushBatch batch, OffsetRange... ranges) {
        return new FlushBatch(batch.schema(), batch.batches(), batch.rows(), List.of(ranges));
    }
}
