package dev.millpond.sinks.ducklake;

import dev.millpond.config.LandingLimits;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.RejectedRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Rejected records land in _millpond_rejects in the same snapshot as the flush's rows and offsets, or not at all. */
class DuckLakeSinkRejectsTest {

    private static final String GROUP = "millpond-t-events";

    @Test
    void rowsRejectsAndOffsetsLandInOneSnapshot() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.recordingOffsets(GROUP));
            sink.write(with(f.batch("{\"id\":1}"), List.of(), new OffsetRange("t", 0, 0, 0)));
            long snapshotsBefore = f.count("SELECT count(*) FROM ducklake_snapshots('lake')");

            byte[] big = new byte[100_000];
            java.util.Arrays.fill(big, (byte) '[');
            sink.write(with(f.batch("{\"id\":2}"), List.of(
                    RejectedRecord.of("t", 0, 1, 1_700_000_000_123L, "json_parse", "not an object\u0000!", "[1]".getBytes(
                            StandardCharsets.UTF_8), 64),
                    RejectedRecord.of("t", 0, 3, -1, "json_parse", "too deep", big, 1000)),
                    new OffsetRange("t", 0, 1, 3)));

            assertThat(f.count("SELECT count(*) FROM ducklake_snapshots('lake')")).as("one flush, one snapshot")
                    .isEqualTo(snapshotsBefore + 1);
            assertThat(f.rows("SELECT table_name, topic, kafka_partition, kafka_offset, epoch_ms(kafka_timestamp), reason,"
                    + " error, octet_length(value), value_length FROM lake.main._millpond_rejects ORDER BY kafka_offset"))
                    .containsExactly("events|t|0|1|1700000000123|json_parse|not an object\uFFFD!|3|3",
                            "events|t|0|3|null|json_parse|too deep|1000|100000");
            assertThat(f.rows("SELECT decode(value) FROM lake.main._millpond_rejects WHERE kafka_offset = 1"))
                    .containsExactly("[1]");
            assertThat(sink.recordedOffsets("t")).contains(Map.of(0, 4L));
        }
    }

    @Test
    void aFlushOfOnlyRejectsLandsThemWithItsOffsets() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.recordingOffsets(GROUP));
            FlushBatch onlyRejects = new FlushBatch(new org.apache.arrow.vector.types.pojo.Schema(List.of()), List.of(),
                    0, List.of(new OffsetRange("t", 2, 7, 7)), List.of(RejectedRecord.of("t", 2, 7, 5, "json_parse",
                    "x", "nope".getBytes(StandardCharsets.UTF_8), 64)));

            assertThat(sink.write(onlyRejects)).isZero();

            assertThat(f.count("SELECT count(*) FROM lake.main._millpond_rejects")).isEqualTo(1);
            assertThat(sink.recordedOffsets("t")).contains(Map.of(2, 8L));
        }
    }

    @Test
    void whenTheRejectsInsertFailsTheRowsAndOffsetsDoNotLandEither() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.recordingOffsets(GROUP));
            sink.write(with(f.batch("{\"id\":1}"), List.of(), new OffsetRange("t", 0, 0, 0)));
            f.execute("DROP TABLE lake.main._millpond_rejects");

            FlushBatch second = with(f.batch("{\"id\":2}"), List.of(RejectedRecord.of("t", 0, 1, 0, "json_parse", "x",
                    new byte[]{1, 2}, 64)), new OffsetRange("t", 0, 1, 2));
            assertThatThrownBy(() -> sink.write(second)).isInstanceOf(SQLException.class)
                    .hasMessageContaining(LakeRejects.TABLE);
            assertThat(f.count("SELECT count(*) FROM lake.main.events")).isEqualTo(1);
            assertThat(sink.recordedOffsets("t")).contains(Map.of(0, 1L));

            sink.write(second, 2);
            assertThat(f.count("SELECT count(*) FROM lake.main.events")).isEqualTo(2);
            assertThat(f.count("SELECT count(*) FROM lake.main._millpond_rejects")).isEqualTo(1);
            assertThat(sink.recordedOffsets("t")).contains(Map.of(0, 3L));
        }
    }

    @Test
    void theSinkNeverWidensTheTablePastItsBound() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSinkSettings s = f.settings(java.util.Optional.empty(), java.util.Optional.empty(), List.of());
            DuckLakeSink sink = f.sink(new DuckLakeSinkSettings(s.connection(), s.catalog(), s.dataPath(), s.schema(),
                    s.table(), s.s3Settings(), s.maxRetryCount(), s.memoryLimit(), s.partitionBy(), s.variantSources(),
                    s.extensionDirectory(), s.lakeOffsetsGroupId(), new LandingLimits(5, 100, true, 64)));
            sink.write(f.batch("{\"a\":1,\"b\":2}"));

            sink.write(f.batch("{\"a\":3,\"c\":1,\"d\":2,\"e\":3,\"f\":4}"));

            assertThat(f.columnTypes()).hasSize(5).containsKeys("a", "b", "c", "d", "_inserted_at");
            assertThat(f.errors("schema")).isEqualTo(1);
            assertThat(f.count("SELECT count(*) FROM lake.main.events")).isEqualTo(2);
        }
    }

    private static FlushBatch with(FlushBatch rows, List<RejectedRecord> rejects, OffsetRange... ranges) {
        return new FlushBatch(rows.schema(), rows.batches(), rows.rows(), List.of(ranges), rejects);
    }
}
