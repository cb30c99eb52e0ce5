package dev.millpond.sinks.ducklake;

import dev.millpond.config.LandingLimits;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.testsupport.ServiceBacked;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A flush of wide rows goes to DuckDB in several INSERTs (so no row group outgrows DuckDB's share) and still lands as
 * one snapshot with its offsets, or not at all.
 */
@ServiceBacked
class DuckLakeSinkSlicesTest {

    private static final String GROUP = "millpond-t-events";
    private static final int BATCHES = 6;
    private static final int ROWS_PER_BATCH = 40;

    @Test
    void wideRowsAreInsertedInSlicesAsOneSnapshotWithTheirOffsets() throws Exception {
        try (SinkFixture fixture = new SinkFixture()) {
            FlushBatch flush = wideFlush(fixture, 0);
            long batchBytes = InsertSlices.bufferBytes(flush.batches().get(0));
            // Two batches per slice: three INSERTs.
            DuckLakeSink sink = fixture.sink(withSlices(fixture, 2 * batchBytes + batchBytes / 2));
            sink.write(first(fixture)); // creates the tables
            long snapshots = fixture.count("SELECT count(*) FROM ducklake_snapshots('lake')");
            int files = parquetFiles(fixture);

            assertThat(sink.write(flush)).isEqualTo(BATCHES * ROWS_PER_BATCH);

            assertThat(fixture.count("SELECT count(*) FROM ducklake_snapshots('lake')")).as("one snapshot")
                    .isEqualTo(snapshots + 1);
            assertThat(parquetFiles(fixture) - files).as("one file per INSERT").isEqualTo(3);
            assertThat(fixture.count("SELECT count(DISTINCT id) FROM lake.main.events WHERE id >= 1000"))
                    .isEqualTo(BATCHES * ROWS_PER_BATCH);
            assertThat(fixture.count("SELECT count(*) FROM lake.main.events WHERE id >= 1000"))
                    .isEqualTo(BATCHES * ROWS_PER_BATCH);
            assertThat(sink.recordedOffsets("t").orElseThrow()).isEqualTo(Map.of(0, 1000L + BATCHES * ROWS_PER_BATCH));
        }
    }

    @Test
    void aFailedSlicedFlushLeavesNoSliceBehindAndItsRetryLandsOnce() throws Exception {
        try (SinkFixture fixture = new SinkFixture()) {
            FlushBatch flush = wideFlush(fixture, 0);
            DuckLakeSink sink = fixture.sink(withSlices(fixture, InsertSlices.bufferBytes(flush.batches().get(0))));
            sink.write(first(fixture));
            // The offsets insert comes after every slice: dropping its table fails the flush at its very end.
            fixture.execute("DROP TABLE lake.main._millpond_offsets");

            assertThatThrownBy(() -> sink.write(flush)).isInstanceOf(SQLException.class);
            assertThat(fixture.count("SELECT count(*) FROM lake.main.events WHERE id >= 1000"))
                    .as("every slice rolled back").isZero();

            sink.write(flush, 2);
            assertThat(fixture.count("SELECT count(*) FROM lake.main.events WHERE id >= 1000"))
                    .isEqualTo(BATCHES * ROWS_PER_BATCH);
        }
    }

    @Test
    void narrowRowsStayOneInsert() throws Exception {
        try (SinkFixture fixture = new SinkFixture()) {
            FlushBatch flush = wideFlush(fixture, 0);
            // 8,192 rows of this width fit the bound: the flush is not cut, whatever its total size.
            long rowBytes = InsertSlices.bufferBytes(flush.batches().get(0)) / ROWS_PER_BATCH + 1;
            DuckLakeSink sink = fixture.sink(withSlices(fixture, rowBytes * 8_192));
            sink.write(first(fixture));
            int files = parquetFiles(fixture);
            sink.write(flush);
            assertThat(parquetFiles(fixture) - files).isEqualTo(1);
        }
    }

    /** Six batches of forty ~2 KB rows, ids from 1000, covering offsets 1000.. of partition 0. */
    private static FlushBatch wideFlush(SinkFixture fixture, int seed) {
        List<VectorSchemaRoot> batches = new ArrayList<>();
        int id = 1000;
        for (int b = 0; b < BATCHES; b++) {
            String[] rows = new String[ROWS_PER_BATCH];
            for (int r = 0; r < ROWS_PER_BATCH; r++, id++) {
                rows[r] = "{\"id\":" + id + ",\"payload\":\"" + "x".repeat(2_000 + (id * 31 + seed) % 97) + "\"}";
            }
            batches.add(fixture.batch(rows).batches().get(0));
        }
        return new FlushBatch(batches.get(0).getSchema(), batches, (long) BATCHES * ROWS_PER_BATCH,
                List.of(new OffsetRange("t", 0, 1000, 1000 + BATCHES * ROWS_PER_BATCH - 1)));
    }

    /** A first flush of the same columns, so the tables exist before the one under test. */
    private static FlushBatch first(SinkFixture fixture) {
        FlushBatch one = fixture.batch("{\"id\":1,\"payload\":\"a\"}");
        return new FlushBatch(one.schema(), one.batches(), one.rows(), List.of(new OffsetRange("t", 0, 0, 0)));
    }

    private static DuckLakeSinkSettings withSlices(SinkFixture fixture, long sliceBytes) {
        DuckLakeSinkSettings s = fixture.recordingOffsets(GROUP);
        return new DuckLakeSinkSettings(s.connection(), s.catalog(), s.dataPath(), s.schema(), s.table(),
                s.s3Settings(), s.maxRetryCount(), s.memoryLimit(), s.partitionBy(), s.variantSources(),
                s.extensionDirectory(), s.lakeOffsetsGroupId(), LandingLimits.DEFAULTS,
                Optional.of(new DuckDbResources(2, 8_192, sliceBytes)));
    }

    private static int parquetFiles(SinkFixture fixture) throws Exception {
        return (int) fixture.lake.listDataFiles().stream().filter(k -> k.endsWith(".parquet")).count();
    }
}
