package dev.millpond.sinks.ducklake;

import dev.millpond.observability.ErrorType;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.WriteFailure;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The partition fence on a real lake: a flush whose offsets start below what the lake recorded for a partition is
 * refused in its own transaction, nothing written; continuing, skipping ahead and a partition's first flush are not.
 * Two sinks of one group.id (two owners of one partition) committing the same records at the same moment land them
 * once.
 */
@ServiceBacked
class DuckLakeSinkPartitionFenceTest {

    private static final String GROUP = "millpond-t-events";

    @Test
    void aFlushOfRecordsTheLakeHoldsIsRefusedWithNothingWritten() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink first = f.sink(f.recordingOffsets(GROUP));
            DuckLakeSink second = f.sink(f.recordingOffsets(GROUP));
            first.write(flush(f, 0, 10, new OffsetRange("t", 0, 100, 109), new OffsetRange("t", 1, 0, 4)));

            // The second owner resumed where the lake said before the first owner's flush: its flush repeats it.
            FlushBatch repeat = flush(f, 5, 15, new OffsetRange("t", 0, 105, 114), new OffsetRange("t", 2, 0, 0));
            assertThatThrownBy(() -> second.write(repeat)).isInstanceOf(PartitionFenceException.class)
                    .hasMessageContaining("partition 0 of t: this flush covers offsets [105, 114] but the lake already"
                            + " holds this partition's records below 110")
                    .hasMessageContaining("group.id " + GROUP)
                    .satisfies(e -> assertThat(second.classify(e)).isEqualTo(
                            WriteFailure.permanent(ErrorType.OFFSET_FENCE)));

            assertThat(f.count("SELECT count(*) FROM lake.main.events")).as("nothing of the refused flush").isEqualTo(10);
            assertThat(first.recordedOffsets("t").orElseThrow()).isEqualTo(Map.of(0, 110L, 1, 5L));
        }
    }

    @Test
    void continuingSkippingAheadAndAFirstFlushAreNotOverlaps() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink first = f.sink(f.recordingOffsets(GROUP));
            DuckLakeSink second = f.sink(f.recordingOffsets(GROUP));
            first.write(flush(f, 0, 10, new OffsetRange("t", 0, 0, 9)));

            second.write(flush(f, 10, 20, new OffsetRange("t", 0, 10, 19)));                // continues
            first.write(flush(f, 20, 30, new OffsetRange("t", 0, 50, 59)));                 // a gap (filtered, markers, retention)
            second.write(flush(f, 30, 40, new OffsetRange("t", 3, 7_000, 7_009)));          // the partition's first flush
            first.write(flush(f, 40, 50, new OffsetRange("other", 0, 0, 9)));               // another topic

            assertThat(f.count("SELECT count(*) FROM lake.main.events")).isEqualTo(50);
            assertThat(first.recordedOffsets("t").orElseThrow()).isEqualTo(Map.of(0, 60L, 3, 7_010L));
        }
    }

    /**
     * A topic deleted and created again under the same name starts its offsets again at 0, with a new Kafka id: the
     * deleted topic's rows do not fence it (before, every flush of the new topic was refused, a crash loop), while its
     * own rows fence it as any topic's.
     */
    @Test
    void aRecreatedTopicIsNotFencedByTheDeletedTopicsOffsets() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink first = f.sink(f.recordingOffsets(GROUP));
            DuckLakeSink second = f.sink(f.recordingOffsets(GROUP));
            first.write(flush(f, 0, 10, range(0, 0, 99, "old-id"), range(1, 0, 49, "old-id")));

            second.write(flush(f, 10, 20, range(0, 0, 9, "new-id"), range(1, 0, 4, "new-id")));
            assertThat(second.recordedOffsets("t", "new-id").orElseThrow().next()).isEqualTo(Map.of(0, 10L, 1, 5L));

            FlushBatch repeat = flush(f, 20, 30, range(0, 5, 14, "new-id"));
            assertThatThrownBy(() -> first.write(repeat)).isInstanceOf(PartitionFenceException.class)
                    .hasMessageContaining("partition 0 of t: this flush covers offsets [5, 14] but the lake already"
                            + " holds this partition's records below 10");
            assertThat(f.count("SELECT count(*) FROM lake.main.events")).isEqualTo(20);
        }
    }

    /**
     * Rows recorded without a topic id (by the original, or a build before ids) are the live topic's as long as no
     * row names another id, as at startup: they fence a flush of the live topic until a recreated topic's rows say
     * otherwise.
     */
    @Test
    void rowsWithoutATopicIdFenceAsTheStartupReadsThem() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink older = f.sink(f.recordingOffsets(GROUP));
            DuckLakeSink sink = f.sink(f.recordingOffsets(GROUP));
            older.write(flush(f, 0, 10, new OffsetRange("t", 0, 0, 99)));

            assertThatThrownBy(() -> sink.write(flush(f, 10, 20, range(0, 50, 59, "id-a"))))
                    .isInstanceOf(PartitionFenceException.class);
            sink.write(flush(f, 10, 20, range(0, 100, 109, "id-a")));                    // continues them

            // Recreated: rows name id-a, and id-b's flush from 0 is above none of the rows that count for it.
            sink.write(flush(f, 20, 30, range(0, 0, 9, "id-b")));
            assertThat(f.count("SELECT count(*) FROM lake.main.events")).isEqualTo(30);
        }
    }

    /** The VARIANT dual-write retries a failed INSERT without its companions; a refusal survives that retry. */
    @Test
    void aFlushWithVariantCompanionsIsRefusedToo() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSinkSettings s = f.settings(java.util.Optional.empty(), java.util.Optional.empty(),
                    List.of("props"));
            DuckLakeSinkSettings variant = new DuckLakeSinkSettings(s.connection(), s.catalog(), s.dataPath(),
                    s.schema(), s.table(), s.s3Settings(), s.maxRetryCount(), s.memoryLimit(), s.partitionBy(),
                    s.variantSources(), s.extensionDirectory(), java.util.Optional.of(GROUP));
            DuckLakeSink first = f.sink(variant);
            DuckLakeSink second = f.sink(variant);
            FlushBatch rows = f.batch("{\"id\":1,\"props\":{\"a\":1}}", "{\"id\":2,\"props\":{\"a\":2}}");
            first.write(new FlushBatch(rows.schema(), rows.batches(), rows.rows(),
                    List.of(new OffsetRange("t", 0, 0, 1))), 1);

            FlushBatch repeat = new FlushBatch(rows.schema(), rows.batches(), rows.rows(),
                    List.of(new OffsetRange("t", 0, 1, 1)));
            assertThatThrownBy(() -> second.write(repeat, 1)).isInstanceOf(PartitionFenceException.class);
            assertThat(f.count("SELECT count(*) FROM lake.main.events")).isEqualTo(2);
        }
    }

    @Test
    void withLakeOffsetsOffThereIsNoFence() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink a = f.sink();
            DuckLakeSink b = f.sink();
            a.write(flush(f, 0, 10, new OffsetRange("t", 0, 0, 9)));
            b.write(flush(f, 0, 10, new OffsetRange("t", 0, 0, 9)));
            assertThat(f.count("SELECT count(*) FROM lake.main.events")).as("nothing recorded, nothing fenced")
                    .isEqualTo(20);
        }
    }

    /**
     * Both owners reach the commit of the same records together: the test holds the partition's lock while both
     * writes start, so both are past everything but the fence when it lets go. DuckLake alone would commit both
     * (two transactions that only insert never conflict); the fence lands exactly one.
     */
    @Test
    void twoOwnersCommittingTheSameRecordsAtOnceLandThemOnce() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink a = f.sink(f.recordingOffsets(GROUP));
            DuckLakeSink b = f.sink(f.recordingOffsets(GROUP));
            a.write(flush(f, 0, 1, new OffsetRange("t", 0, 0, 0)));
            FlushBatch fromA = flush(f, 1, 21, new OffsetRange("t", 0, 1, 20));
            FlushBatch fromB = flush(f, 1, 31, new OffsetRange("t", 0, 1, 30));

            List<CompletableFuture<Long>> writes = new ArrayList<>();
            try (Connection catalog = Services.postgres().connect(f.lake.catalogDatabase())) {
                lock(catalog, PartitionLocks.topicKey(SinkFixture.TABLE, GROUP, "t"), 0);
                writes.add(CompletableFuture.supplyAsync(() -> write(a, fromA)));
                writes.add(CompletableFuture.supplyAsync(() -> write(b, fromB)));
                Await.within(Duration.ofSeconds(60), "both writers at the partition's lock (or done)")
                        .pollInterval(Duration.ofMillis(50)).until(() -> waitingOnAdvisoryLocks(catalog) >= 2
                                || writes.stream().allMatch(CompletableFuture::isDone));
                assertThat(waitingOnAdvisoryLocks(catalog)).as("both writers wait for the partition's lock")
                        .isEqualTo(2);
            } // the test's session ends: its lock goes

            List<Throwable> refused = new ArrayList<>();
            long landed = 0;
            for (CompletableFuture<Long> w : writes) {
                try {
                    landed += w.get(120, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    refused.add(e.getCause().getCause());
                }
            }
            assertThat(refused).as("one of the two is refused").hasSize(1)
                    .allSatisfy(e -> assertThat(e).isInstanceOf(PartitionFenceException.class));
            assertThat(f.count("SELECT count(*) FROM lake.main.events")).isEqualTo(1 + landed);
            assertThat(f.count("SELECT count(*) - count(DISTINCT id) FROM lake.main.events")).as("duplicates").isZero();
        }
    }

    private static long write(DuckLakeSink sink, FlushBatch batch) {
        try {
            return sink.write(batch, 1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void lock(Connection c, int key, int partition) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_lock(?, ?)")) {
            ps.setInt(1, key);
            ps.setInt(2, partition);
            ps.execute();
        }
    }

    private static int waitingOnAdvisoryLocks(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static OffsetRange range(int partition, long first, long last, String topicId) {
        return new OffsetRange("t", partition, first, last, java.util.Optional.of(topicId));
    }

    /** Rows {@code {"id": n}} for n in [from, to), covering {@code ranges}. */
    private static FlushBatch flush(SinkFixture f, int from, int to, OffsetRange... ranges) {
        FlushBatch batch = f.batch(SinkFixture.ids(from, to));
        return new FlushBatch(batch.schema(), batch.batches(), batch.rows(), List.of(ranges));
    }
}
