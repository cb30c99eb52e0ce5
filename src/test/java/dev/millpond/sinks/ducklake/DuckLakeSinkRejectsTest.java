package dev.millpond.sinks.ducklake;

import dev.millpond.config.LandingLimits;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.RejectedRecord;
import dev.millpond.sinks.StoredReject;
import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Rejected records land in _millpond_rejects in the same snapshot as the flush's rows and offsets, or not at all. */
@ServiceBacked
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
                    RejectedRecord.of("t", 0, 2, Long.MAX_VALUE, "json_parse", "a producer's own timestamp",
                            "x".getBytes(StandardCharsets.UTF_8), 64),
                    RejectedRecord.of("t", 0, 3, -1, "json_parse", "too deep", big, 1000)),
                    new OffsetRange("t", 0, 1, 3)));

            assertThat(f.count("SELECT count(*) FROM ducklake_snapshots('lake')")).as("one flush, one snapshot")
                    .isEqualTo(snapshotsBefore + 1);
            assertThat(f.rows("SELECT table_name, topic, kafka_partition, kafka_offset, epoch_ms(kafka_timestamp), reason,"
                    + " error, octet_length(value), value_length FROM lake.main._millpond_rejects ORDER BY kafka_offset"))
                    .containsExactly("events|t|0|1|1700000000123|json_parse|not an object\uFFFD!|3|3",
                            "events|t|0|2|null|json_parse|a producer's own timestamp|1|1",
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

    /**
     * Multi-megabyte rejects, more of them than one Arrow batch of rejects holds, are stored whole, byte for byte; a
     * value cut at an operator's cap says so.
     */
    @Test
    void largeRejectsAreStoredWholeAndACappedOneSaysSo() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.recordingOffsets(GROUP));
            java.util.Random random = new java.util.Random(20);
            List<RejectedRecord> rejects = new java.util.ArrayList<>();
            Map<Long, String> digests = new java.util.HashMap<>();
            for (long offset = 0; offset < 4; offset++) {
                byte[] value = new byte[5_000_000 + random.nextInt(1000)];
                random.nextBytes(value);
                rejects.add(RejectedRecord.of("t", 0, offset, 0, "json_parse", "x", value, LandingLimits.UNCAPPED));
                digests.put(offset, sha256(value));
            }
            byte[] capped = new byte[100_000];
            random.nextBytes(capped);
            rejects.add(RejectedRecord.of("t", 0, 4, 0, "column_limit", "wide", capped, 1000));
            digests.put(4L, sha256(java.util.Arrays.copyOf(capped, 1000)));
            assertThat(LakeRejects.slices(rejects)).as("the rejects need several batches").hasSizeGreaterThan(1);

            sink.write(with(f.batch("{\"id\":1}"), rejects, new OffsetRange("t", 0, 0, 4)));

            try (java.sql.Statement st = f.query().createStatement(); java.sql.ResultSet rs = st.executeQuery(
                    "SELECT kafka_offset, value, value_length, value_truncated FROM lake.main._millpond_rejects"
                            + " ORDER BY kafka_offset")) {
                int n = 0;
                while (rs.next()) {
                    long offset = rs.getLong(1);
                    assertThat(sha256(rs.getBytes(2))).as("value at offset %d", offset).isEqualTo(digests.get(offset));
                    assertThat(rs.getLong(3)).isEqualTo(offset < 4 ? rejects.get((int) offset).valueLength() : 100_000);
                    assertThat(rs.getBoolean(4)).as("value_truncated at offset %d", offset).isEqualTo(offset == 4);
                    n++;
                }
                assertThat(n).isEqualTo(5);
            }
        }
    }

    /**
     * A flush's few rejects are written to a parquet file, not inlined into the catalog: a multi-megabyte value in a
     * catalog row is one huge Postgres write per flush and a catalog that grows with every reject.
     */
    @Test
    void rejectsAreNeverInlinedIntoTheCatalog() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.recordingOffsets(GROUP));
            byte[] value = new byte[5_000_000];
            new java.util.Random(5).nextBytes(value);

            sink.write(with(f.batch("{\"id\":1}"), List.of(RejectedRecord.of("t", 0, 1, 0, "json_parse", "x", value,
                    LandingLimits.UNCAPPED)), new OffsetRange("t", 0, 0, 1)));

            assertThat(f.count("SELECT count(*) FROM ducklake_list_files('lake', '_millpond_rejects')"))
                    .as("parquet files of the rejects table").isEqualTo(1);
            assertThat(f.rows("SELECT sha256(value) FROM lake.main._millpond_rejects"))
                    .containsExactly(sha256(value));
        }
    }

    /** A rejects table from before value_truncated gets the column; its older rows hold NULL there. */
    @Test
    void anOlderRejectsTableGainsTheTruncatedColumn() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            f.execute("CREATE TABLE lake.main._millpond_rejects (table_name VARCHAR, topic VARCHAR, kafka_partition"
                    + " INTEGER, kafka_offset BIGINT, kafka_timestamp TIMESTAMPTZ, reason VARCHAR, error VARCHAR,"
                    + " value BLOB, value_length BIGINT, rejected_at TIMESTAMPTZ)");
            f.execute("INSERT INTO lake.main._millpond_rejects VALUES ('events', 't', 0, 0, NULL, 'json_parse', 'old',"
                    + " 'x'::BLOB, 1, NOW())");
            DuckLakeSink sink = f.sink(f.recordingOffsets(GROUP));

            sink.write(with(f.batch("{\"id\":1}"), List.of(RejectedRecord.of("t", 0, 1, 0, "json_parse", "new",
                    "[1]".getBytes(StandardCharsets.UTF_8), LandingLimits.UNCAPPED)), new OffsetRange("t", 0, 1, 1)));

            assertThat(f.rows("SELECT kafka_offset, error, value_truncated FROM lake.main._millpond_rejects"
                    + " ORDER BY kafka_offset")).containsExactly("0|old|null", "1|new|false");
        }
    }

    static String sha256(byte[] bytes) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    /**
     * A replay lands rows, removes the rejects it lands again and stores the one that failed again (its row replaced)
     * in one snapshot, without touching the offsets; written again as a retry after its commit landed, it writes
     * nothing twice; naming a reject someone else removed, it writes nothing at all.
     */
    @Test
    void aReplayRemovesTheRejectsItLandsInTheCommitThatLandsThem() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.recordingOffsets(GROUP));
            sink.write(with(f.batch("{\"id\":1}"), List.of(
                    RejectedRecord.of("t", 0, 1, 1_000L, "column_limit", "wide", "{\"id\":2}".getBytes(
                            StandardCharsets.UTF_8), 64),
                    RejectedRecord.of("t", 0, 2, 2_000L, "column_limit", "wide", "{\"id\":3,\"w\":1}".getBytes(
                            StandardCharsets.UTF_8), 64)), new OffsetRange("t", 0, 0, 2)));
            List<String> offsets = f.rows("SELECT * FROM lake.main._millpond_offsets ORDER BY ALL");
            List<StoredReject> kept = new java.util.ArrayList<>();
            for (String row : f.rows("SELECT kafka_offset, epoch_us(rejected_at) FROM lake.main._millpond_rejects "
                    + "ORDER BY kafka_offset")) {
                String[] cells = row.split("\\|");
                kept.add(new StoredReject("t", 0, Long.parseLong(cells[0]), Long.parseLong(cells[1])));
            }
            long snapshots = f.count("SELECT count(*) FROM ducklake_snapshots('lake')");
            FlushBatch replay = with(f.batch("{\"id\":2}"), List.of(RejectedRecord.of("t", 0, 2, 2_000L,
                    "column_limit", "still wide", "{\"id\":3,\"w\":1}".getBytes(StandardCharsets.UTF_8), 64)))
                    .replaying(kept);

            assertThat(sink.write(replay)).isEqualTo(1);

            assertThat(f.count("SELECT count(*) FROM ducklake_snapshots('lake')")).isEqualTo(snapshots + 1);
            assertThat(f.rows("SELECT id FROM lake.main.events ORDER BY id")).containsExactly("1", "2");
            assertThat(f.rows("SELECT kafka_offset, epoch_ms(kafka_timestamp), error, decode(value) FROM "
                    + "lake.main._millpond_rejects")).containsExactly("2|2000|still wide|{\"id\":3,\"w\":1}");
            assertThat(f.rows("SELECT * FROM lake.main._millpond_offsets ORDER BY ALL")).as("offsets untouched")
                    .isEqualTo(offsets);

            assertThat(sink.write(replay, 2)).as("the retry finds its commit landed").isEqualTo(1);
            assertThat(f.count("SELECT count(*) FROM lake.main.events")).isEqualTo(2);
            assertThat(f.count("SELECT count(*) FROM lake.main._millpond_rejects")).isEqualTo(1);

            FlushBatch stale = f.batch("{\"id\":2}").replaying(kept.subList(0, 1));
            assertThatThrownBy(() -> sink.write(stale)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("changed under the replay");
            assertThat(f.count("SELECT count(*) FROM lake.main.events")).isEqualTo(2);
            assertThat(f.count("SELECT count(*) FROM ducklake_snapshots('lake')")).isEqualTo(snapshots + 1);
        }
    }

    /**
     * The VARIANT companions' write path, with an integer its guard rewrites (another batch of the same rows), carries
     * the replayed rows into the same commit too.
     */
    @Test
    void aReplayIntoATableWithVariantCompanionsRemovesItsRejects() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.settings(java.util.Optional.empty(), java.util.Optional.empty(),
                    List.of("props")));
            String record = "{\"id\":2,\"props\":\"{\\\"a\\\":9223372036854775808}\"}";
            sink.write(with(f.batch("{\"id\":1,\"props\":\"{}\"}"), List.of(RejectedRecord.of("t", 0, 1, 0,
                    "column_limit", "wide", record.getBytes(StandardCharsets.UTF_8), 64))));
            long keptAt = f.count("SELECT epoch_us(rejected_at) FROM lake.main._millpond_rejects");

            sink.write(f.batch(record).replaying(List.of(new StoredReject("t", 0, 1, keptAt))));

            assertThat(f.rows("SELECT id, props_variant.a::VARCHAR FROM lake.main.events ORDER BY id"))
                    .containsExactly("1|null", "2|9223372036854775808");
            assertThat(f.count("SELECT count(*) FROM lake.main._millpond_rejects")).isZero();
        }
    }

    private static FlushBatch with(FlushBatch rows, List<RejectedRecord> rejects, OffsetRange... ranges) {
        return new FlushBatch(rows.schema(), rows.batches(), rows.rows(), List.of(ranges), rejects);
    }
}
