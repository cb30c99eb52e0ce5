package dev.millpond.sinks.hoglake.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnStats;
import dev.millpond.sinks.hoglake.parquet.HoglakeParquetWriter.Column;
import dev.millpond.sinks.hoglake.parquet.HoglakeParquetWriter.EncodedFile;
import dev.millpond.vocabulary.UuidVector;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.duckdb.DuckDBDriver;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.BucketUtil;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The parquet a hoglake registration describes, read back by DuckDB: field ids, annotations, stats and bounds. */
class HoglakeParquetWriterTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final UUID U1 = UUID.fromString("f79c3e09-677c-4bbd-a479-3f349cb785e7");
    private static final UUID U2 = UUID.fromString("00000000-0000-0000-0000-00000000000a");

    /** Field ids deliberately not 1..n, so the test proves they come from the table. */
    private static final List<Column> COLUMNS = List.of(
            new Column("id", 7, HoglakeColumnType.LONG, false),
            new Column("name", 3, HoglakeColumnType.STRING, true),
            new Column("score", 11, HoglakeColumnType.DOUBLE, true),
            new Column("ratio", 12, HoglakeColumnType.FLOAT, true),
            new Column("flag", 4, HoglakeColumnType.BOOLEAN, true),
            new Column("uuid", 5, HoglakeColumnType.UUID, true),
            new Column("_inserted_at", 9, HoglakeColumnType.TIMESTAMPTZ, true),
            new Column("missing", 20, HoglakeColumnType.STRING, true));

    private BufferAllocator allocator;
    private VectorSchemaRoot root;

    @BeforeEach
    void batch() {
        allocator = new RootAllocator();
        BigIntVector id = new BigIntVector("id", allocator);
        VarCharVector name = new VarCharVector("name", allocator);
        Float8Vector score = new Float8Vector("score", allocator);
        Float4Vector ratio = new Float4Vector("ratio", allocator);
        BitVector flag = new BitVector("flag", allocator);
        UuidVector uuid = new UuidVector("uuid", allocator);
        TimeStampMicroTZVector ts = new TimeStampMicroTZVector("_inserted_at", allocator, "UTC");
        long[] ids = {5, -3, 42, 8};
        String[] names = {"héllo", null, "alpha", "zed"};
        double[] scores = {0.0, -0.0, 0.0, 0.0};
        for (int i = 0; i < 4; i++) {
            id.setSafe(i, ids[i]);
            if (names[i] == null) {
                name.setNull(i);
            } else {
                name.setSafe(i, names[i].getBytes(StandardCharsets.UTF_8));
            }
            score.setSafe(i, scores[i]);
            ratio.setSafe(i, i == 3 ? 0.0f : -0.0f);
            flag.setSafe(i, i % 2);
            UUID u = i == 0 ? U1 : U2;
            if (i == 2) {
                uuid.setNull(i);
            } else {
                uuid.setSafe(i, u.getMostSignificantBits(), u.getLeastSignificantBits());
            }
            ts.setSafe(i, 1_788_609_600_000_000L + i);
        }
        List<FieldVector> vectors = List.of(id, name, score, ratio, flag, uuid, ts);
        vectors.forEach(v -> v.setValueCount(4));
        root = new VectorSchemaRoot(vectors);
        root.setRowCount(4);
    }

    @AfterEach
    void release() {
        root.close();
        allocator.close();
    }

    private static Path save(Path dir, EncodedFile f) throws Exception {
        Path p = dir.resolve("f.parquet");
        Files.write(p, f.bytes());
        return p;
    }

    private static List<Map<String, Object>> query(String sql, String file) throws Exception {
        try (Connection c = new DuckDBDriver().connect("jdbc:duckdb:", new Properties());
             PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, file);
            try (ResultSet rs = s.executeQuery()) {
                List<Map<String, Object>> rows = new ArrayList<>();
                while (rs.next()) {
                    Map<String, Object> row = new HashMap<>();
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        row.put(rs.getMetaData().getColumnName(i), rs.getObject(i));
                    }
                    rows.add(row);
                }
                return rows;
            }
        }
    }

    @Test
    void schemaCarriesFieldIdsAndTheAnnotationsReadersBindThrough(@TempDir Path dir) throws Exception {
        Path file = save(dir, HoglakeParquetWriter.write(COLUMNS, List.of(root), null));
        Map<String, Map<String, Object>> byName = new HashMap<>();
        for (Map<String, Object> row : query("SELECT name, field_id, type, repetition_type, logical_type::VARCHAR AS lt"
                + " FROM parquet_schema(?)", file.toString())) {
            byName.put((String) row.get("name"), row);
        }
        Map<String, Long> ids = new HashMap<>();
        COLUMNS.forEach(c -> ids.put(c.name(), c.fieldId()));
        ids.forEach((name, id) -> assertThat(((Number) byName.get(name).get("field_id")).longValue()).as(name)
                .isEqualTo(id));
        assertThat(byName.get("id").get("repetition_type")).isEqualTo("REQUIRED");
        assertThat(byName.get("name").get("repetition_type")).isEqualTo("OPTIONAL");
        assertThat(byName.get("uuid").get("type")).isEqualTo("FIXED_LEN_BYTE_ARRAY");
        assertThat((String) byName.get("uuid").get("lt")).contains("UUID");
        assertThat((String) byName.get("_inserted_at").get("lt")).contains("isAdjustedToUTC=1").contains("MICROS");
        assertThat((String) byName.get("name").get("lt")).contains("String");

        List<Map<String, Object>> rows = query("SELECT count(*) AS n, sum(id) AS s, max(uuid::VARCHAR) AS u,"
                + " count(missing) AS m, min(name) AS lo FROM read_parquet(?)", file.toString());
        assertThat(((Number) rows.get(0).get("n")).longValue()).isEqualTo(4);
        assertThat(((Number) rows.get(0).get("s")).longValue()).isEqualTo(52);
        assertThat(rows.get(0).get("u")).isEqualTo(U1.toString());
        assertThat(((Number) rows.get(0).get("m")).longValue()).isZero();
        assertThat(rows.get(0).get("lo")).isEqualTo("alpha");
        assertThat(query("SELECT DISTINCT compression FROM parquet_metadata(?)", file.toString()))
                .extracting(r -> r.get("compression")).containsExactly("SNAPPY");
    }

    @Test
    void footerStatisticsBecomeColumnStatsWithIcebergBounds(@TempDir Path dir) throws Exception {
        EncodedFile f = HoglakeParquetWriter.write(COLUMNS, List.of(root), null);
        Map<Long, ColumnStats> stats = new HashMap<>();
        f.columnStats().forEach(s -> stats.put(s.fieldId(), s));
        assertThat(f.recordCount()).isEqualTo(4);

        ColumnStats id = stats.get(7L);
        assertThat(id.valueCount()).isEqualTo(4);
        assertThat(id.nullCount()).isZero();
        assertThat(HEX.formatHex(id.lowerBound())).isEqualTo("fdffffffffffffff");
        assertThat(HEX.formatHex(id.upperBound())).isEqualTo("2a00000000000000");

        ColumnStats name = stats.get(3L);
        assertThat(name.valueCount()).isEqualTo(4);
        assertThat(name.nullCount()).isEqualTo(1);
        assertThat(new String(name.lowerBound(), StandardCharsets.UTF_8)).isEqualTo("alpha");
        assertThat(new String(name.upperBound(), StandardCharsets.UTF_8)).isEqualTo("zed");

        // All zeros: lower must be -0.0 and upper +0.0, whatever the footer says.
        ColumnStats score = stats.get(11L);
        assertThat(HEX.formatHex(score.lowerBound())).isEqualTo("0000000000000080");
        assertThat(HEX.formatHex(score.upperBound())).isEqualTo("0000000000000000");
        ColumnStats ratio = stats.get(12L);
        assertThat(HEX.formatHex(ratio.lowerBound())).isEqualTo("00000080");
        assertThat(HEX.formatHex(ratio.upperBound())).isEqualTo("00000000");

        assertThat(HEX.formatHex(stats.get(4L).lowerBound())).isEqualTo("00");
        assertThat(HEX.formatHex(stats.get(4L).upperBound())).isEqualTo("01");

        ColumnStats uuid = stats.get(5L);
        assertThat(uuid.nullCount()).isEqualTo(1);
        assertThat(HEX.formatHex(uuid.lowerBound())).isEqualTo("0000000000000000000000000000000a");
        assertThat(HEX.formatHex(uuid.upperBound())).isEqualTo("f79c3e09677c4bbda4793f349cb785e7");

        ColumnStats ts = stats.get(9L);
        assertThat(HEX.formatHex(ts.lowerBound())).isEqualTo("0090d91fbb5a0600");
        assertThat(ts.upperBound()).isEqualTo(Conversions.toByteBuffer(Types.TimestampType.withZone(),
                1_788_609_600_000_003L).array());

        ColumnStats missing = stats.get(20L);
        assertThat(missing.nullCount()).isEqualTo(4);
        assertThat(missing.lowerBound()).isNull();
        assertThat(missing.upperBound()).isNull();

        // The same numbers DuckDB reads from the footer.
        for (Map<String, Object> row : query("SELECT path_in_schema AS p, stats_null_count AS nulls, num_values AS n"
                + " FROM parquet_metadata(?)", save(dir, f).toString())) {
            long fieldId = COLUMNS.stream().filter(c -> c.name().equals(row.get("p"))).findFirst().orElseThrow()
                    .fieldId();
            assertThat(((Number) row.get("nulls")).longValue()).as((String) row.get("p"))
                    .isEqualTo(stats.get(fieldId).nullCount());
            assertThat(((Number) row.get("n")).longValue()).isEqualTo(stats.get(fieldId).valueCount());
        }
    }

    @Test
    void footerSizeIsTheThriftFooterLength() throws Exception {
        EncodedFile f = HoglakeParquetWriter.write(COLUMNS, List.of(root), null);
        byte[] b = f.bytes();
        assertThat(new String(b, b.length - 4, 4, StandardCharsets.US_ASCII)).isEqualTo("PAR1");
        assertThat(f.footerSize()).isPositive().isLessThanOrEqualTo(b.length - 8);
        FileMetaData meta = Util.readFileMetaData(new ByteArrayInputStream(b, (int) (b.length - 8 - f.footerSize()),
                (int) f.footerSize()));
        assertThat(meta.getNum_rows()).isEqualTo(4);
    }

    @Test
    void writesOnlySelectedRowsAcrossBatches(@TempDir Path dir) throws Exception {
        EncodedFile f = HoglakeParquetWriter.write(COLUMNS, List.of(root, root), List.of(new int[] {0, 2}, new int[] {3}));
        assertThat(f.recordCount()).isEqualTo(3);
        List<Map<String, Object>> rows = query("SELECT sum(id) AS s, count(*) AS n FROM read_parquet(?)",
                save(dir, f).toString());
        assertThat(((Number) rows.get(0).get("s")).longValue()).isEqualTo(5 + 42 + 8);
        assertThat(HEX.formatHex(f.columnStats().get(0).lowerBound())).isEqualTo("0500000000000000");
    }

    @Test
    void aVectorOfTheWrongTypeIsUnsupported() {
        List<Column> wrong = List.of(new Column("name", 1, HoglakeColumnType.LONG, true));
        assertThatThrownBy(() -> HoglakeParquetWriter.write(wrong, List.of(root), null))
                .isInstanceOf(UnsupportedColumnTypeException.class)
                .hasMessageContaining("column 'name' is long in the table");
    }

    /** The contract's bound vectors: {@code encode(value) == unhex(hex)} for each mapped Iceberg type. */
    @ParameterizedTest(name = "{0}({1},{2}) {3} -> {4}")
    @CsvSource({
            "int8,0,0,-128,80ffffff",
            "int,0,0,305419896,78563412",
            "uint32,0,0,2147483648,0000008000000000",
            "uint64,0,0,9223372036854775808,008000000000000000",
            "decimal,10,2,-129,ff7f",
            "decimal,10,2,128,0080",
            "double,0,0,0.1,9a9999999999b93f",
            "float,0,0,-0.0,00000080",
            "date,0,0,-1,ffffffff",
            "timestamp_ms,0,0,1788609600123000,7870db1fbb5a0600",
            "timestamptz,0,0,1788609600000000,0090d91fbb5a0600",
            "timestamp_ns,0,0,1788609600123456789,154d3671f46ad218",
            "string,0,0,héllo,68c3a96c6c6f",
            "uuid,0,0,f79c3e09-677c-4bbd-a479-3f349cb785e7,f79c3e09677c4bbda4793f349cb785e7"})
    void boundVectors(String type, int precision, int scale, String value, String hex) {
        org.apache.iceberg.types.Type t = HoglakeIcebergTypes.of(type, precision, scale).orElseThrow();
        Object v = switch (t.typeId()) {
            case INTEGER, DATE -> Integer.parseInt(value);
            case LONG, TIMESTAMP, TIMESTAMP_NANO -> Long.parseLong(value);
            case DECIMAL -> new BigDecimal(new java.math.BigInteger(value), ((Types.DecimalType) t).scale());
            case DOUBLE -> Double.parseDouble(value);
            case FLOAT -> Float.parseFloat(value);
            case UUID -> UUID.fromString(value);
            default -> value;
        };
        ByteBuffer buf = Conversions.toByteBuffer(t, v);
        byte[] bytes = new byte[buf.remaining()];
        buf.duplicate().get(bytes);
        assertThat(HEX.formatHex(bytes)).isEqualTo(hex);
        Object decoded = Conversions.fromByteBuffer(t, ByteBuffer.wrap(HEX.parseHex(hex)));
        assertThat(decoded instanceof CharSequence cs ? cs.toString() : decoded).isEqualTo(v);
    }

    @Test
    void signedZeroNormalizationCases() {
        assertThat(HEX.formatHex(HoglakeParquetWriter.bound(HoglakeColumnType.FLOAT, 0.0f, true))).isEqualTo("00000080");
        assertThat(HEX.formatHex(HoglakeParquetWriter.bound(HoglakeColumnType.FLOAT, -0.0f, false))).isEqualTo("00000000");
        assertThat(HEX.formatHex(HoglakeParquetWriter.bound(HoglakeColumnType.DOUBLE, 0.0, true)))
                .isEqualTo("0000000000000080");
        // Only floating types normalize: the long -2^63 keeps its bytes.
        assertThat(HEX.formatHex(HoglakeParquetWriter.bound(HoglakeColumnType.LONG, Long.MIN_VALUE, false)))
                .isEqualTo("0000000000000080");
        assertThat(HoglakeParquetWriter.bound(HoglakeColumnType.DOUBLE, Double.NaN, true)).isNull();
    }

    /** The contract's Murmur3 vectors (Iceberg Appendix B), through Iceberg's own bucket hashing. */
    @Test
    void bucketHashVectors() {
        assertThat(BucketUtil.hash(34L)).isEqualTo(2017239379);
        assertThat((BucketUtil.hash(34L) & Integer.MAX_VALUE) % 16).isEqualTo(3);
        assertThat(BucketUtil.hash("iceberg")).isEqualTo(1210000089);
        assertThat((BucketUtil.hash("iceberg") & Integer.MAX_VALUE) % 16).isEqualTo(9);
        assertThat(BucketUtil.hash(17486)).isEqualTo(-653330422); // date 2017-11-16, hashed as a long
        assertThat(BucketUtil.hash(81_068_000_000L)).isEqualTo(-662762989); // time 22:31:08
        assertThat(BucketUtil.hash(1_510_871_468_000_000L)).isEqualTo(-2047944441); // timestamp 2017-11-16T22:31:08
        assertThat(BucketUtil.hash(U1)).isEqualTo(1488055340);
        assertThat(BucketUtil.hash(new BigDecimal("14.20"))).isEqualTo(-500754589);
        assertThat(BucketUtil.hash(ByteBuffer.wrap(new byte[] {0, 1, 2, 3}))).isEqualTo(-188683207);
        // The transform itself, as a partition value.
        org.apache.iceberg.transforms.Transform<Long, Integer> bucket = org.apache.iceberg.transforms.Transforms.bucket(16);
        assertThat(bucket.bind(Types.LongType.get()).apply(34L)).isEqualTo(3);
    }
}
