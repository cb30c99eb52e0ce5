package dev.millpond.stages;

import dev.millpond.vocabulary.UuidType;
import dev.millpond.vocabulary.UuidVector;
import static dev.millpond.stages.Batches.col;
import static dev.millpond.stages.Batches.counter;
import static dev.millpond.stages.Batches.root;
import static dev.millpond.stages.Batches.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.millpond.config.PinnedType;
import dev.millpond.observability.MillpondMetrics;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TypedColumnCoercionTest {
    private final RootAllocator allocator = new RootAllocator();
    private final MillpondMetrics metrics = Batches.metrics();

    @AfterEach
    void allocatorIsEmpty() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    static Stream<Arguments> conversions() {
        String u = "0123abcd-4567-89ab-cdef-0123456789ab";
        return Stream.of(
                // target, source type, source values, expected values
                arguments(PinnedType.BIGINT, String.class, list("42", "-7", "x", "2.5", null, "+3", "9223372036854775808"),
                        list(42L, -7L, null, null, null, 3L, null)),
                arguments(PinnedType.BIGINT, Double.class, list(1.0, 1.9, -2.0, Double.NaN, 1e300),
                        list(1L, null, -2L, null, null)),
                arguments(PinnedType.BIGINT, Boolean.class, list(true, false, null), list(1L, 0L, null)),
                arguments(PinnedType.DOUBLE, String.class, list("2.5", "-1e3", ".5", "x", "1d", "0x1p3"),
                        list(2.5, -1000.0, 0.5, null, null, null)),
                arguments(PinnedType.DOUBLE, Long.class, list(3L, null), list(3.0, null)),
                arguments(PinnedType.BOOLEAN, String.class, list("true", "false", "1", "0", "TRUE", "yes", "2"),
                        list(true, false, true, false, null, null, null)),
                arguments(PinnedType.BOOLEAN, Long.class, list(0L, 1L, -5L), list(false, true, true)),
                arguments(PinnedType.VARCHAR, Boolean.class, list(true, false, null), list("true", "false", null)),
                arguments(PinnedType.VARCHAR, Long.class, list(42L, -1L), list("42", "-1")),
                arguments(PinnedType.VARCHAR, Double.class, list(1.0, 2.5, 1e20), list("1.0", "2.5", "1e20")),
                arguments(PinnedType.UUID, String.class,
                        list(u, "{" + u + "}", "URN:UUID:" + u, "0x" + u.replace("-", ""), null),
                        list(u, u, null, null, null)),
                arguments(PinnedType.UUID, Long.class, list(1L), list((Object) null)),
                arguments(PinnedType.TIMESTAMPTZ, String.class,
                        list("1970-01-01 00:00:01", "1970-01-01T00:00:00.000002", "1970-01-01T00:00:00Z", "1"),
                        list(1_000_000L, 2L, null, null)),
                arguments(PinnedType.TIMESTAMPTZ, Long.class, list(1_700_000_000_000_000L), list(1_700_000_000_000_000L)),
                arguments(PinnedType.TIMESTAMPTZ, Double.class, list(1.5, 2.0), list(null, null)),
                arguments(PinnedType.TIMESTAMPTZ, Boolean.class, list(true), list((Object) null)));
    }

    @ParameterizedTest
    @MethodSource("conversions")
    void convertsAndCountsOneOutcomePerColumn(PinnedType target, Class<?> sourceType, List<Object> in,
                                              List<Object> expected) {
        RecordStages stages = stages(Map.of("c", target));
        try (VectorSchemaRoot out = stages.applyPerPollBatch(root(allocator, col("c", sourceType, in.toArray())))) {
            List<Object> got = values(out, "c");
            if (target == PinnedType.TIMESTAMPTZ) {
                assertThat(out.getVector("c").getField().getType()).isEqualTo(ToTimestamptz.TYPE);
            }
            assertThat(got).isEqualTo(expected);
            long nulled = 0;
            for (int i = 0; i < in.size(); i++) {
                if (in.get(i) != null && expected.get(i) == null) {
                    nulled++;
                }
            }
            double coerced = counter(metrics, "millpond.columns.coerced", "target_type", target.wireName());
            double errors = counter(metrics, "millpond.errors", "type", "column_coercion");
            assertThat(coerced + errors).isEqualTo(1.0);
            assertThat(errors).isEqualTo(nulled > 0 ? 1.0 : 0.0);
        }
    }

    @Test
    void columnsAlreadyOfTheTargetTypeAndAbsentColumnsAreUntouched() {
        RecordStages stages = stages(Map.of("n", PinnedType.BIGINT, "gone", PinnedType.UUID));
        VectorSchemaRoot in = root(allocator, col("n", Long.class, 1L, 2L), col("s", String.class, "a", "b"));
        try (VectorSchemaRoot out = stages.applyPerPollBatch(in)) {
            assertThat(out).isSameAs(in);
            assertThat(out.getSchema().getFields()).noneMatch(f -> f.getName().equals("gone"));
        }
        assertThat(metrics.registry().find("millpond.columns.coerced").counters()).isEmpty();
    }

    @Test
    void uuidColumnIsTheArrowUuidExtensionType() {
        RecordStages stages = stages(Map.of("id", PinnedType.UUID));
        try (VectorSchemaRoot out = stages.applyPerPollBatch(root(allocator,
                col("id", String.class, "01890a5d-ac96-774b-bcce-b302099a8057")))) {
            ArrowType type = out.getVector("id").getField().getType();
            assertThat(type).isInstanceOf(UuidType.class);
            assertThat(((UuidType) type).extensionName()).isEqualTo("arrow.uuid");
            assertThat(((UuidType) type).storageType()).isEqualTo(new ArrowType.FixedSizeBinary(16));
            byte[] stored = ((UuidVector) out.getVector("id")).getUnderlyingVector().get(0);
            assertThat(stored).containsExactly(0x01, 0x89, 0x0a, 0x5d, 0xac, 0x96, 0x77, 0x4b, 0xbc, 0xce,
                    0xb3, 0x02, 0x09, 0x9a, 0x80, 0x57);
        }
    }

    @Test
    void sixteenByteBinaryIsAdoptedAndOtherWidthsAreNulled() {
        RecordStages stages = stages(Map.of("fixed", PinnedType.UUID, "bin", PinnedType.UUID));
        FixedSizeBinaryVector fixed = new FixedSizeBinaryVector("fixed", allocator, 16);
        VarBinaryVector bin = new VarBinaryVector("bin", allocator);
        byte[] bytes = new byte[16];
        bytes[15] = 1;
        fixed.allocateNew(2);
        fixed.set(0, bytes);
        fixed.setValueCount(2);
        bin.allocateNew(2);
        bin.setSafe(0, bytes);
        bin.setSafe(1, new byte[15]);
        bin.setValueCount(2);
        VectorSchemaRoot in = new VectorSchemaRoot(List.of(fixed, bin));
        in.setRowCount(2);
        try (VectorSchemaRoot out = stages.applyPerPollBatch(in)) {
            String one = "00000000-0000-0000-0000-000000000001";
            assertThat(values(out, "fixed")).containsExactly(one, null);
            assertThat(values(out, "bin")).containsExactly(one, null);
            assertThat(counter(metrics, "millpond.columns.coerced", "target_type", "uuid")).isEqualTo(1.0);
            assertThat(counter(metrics, "millpond.errors", "type", "column_coercion")).isEqualTo(1.0);
        }
    }

    /** Arbitrary values of every shape conversion produces: the row count holds and nothing throws. */
    @Test
    void coercionNeverChangesRowCountNorThrows() {
        Map<String, PinnedType> pins = new java.util.LinkedHashMap<>();
        for (PinnedType t : PinnedType.values()) {
            pins.put("c_" + t.wireName(), t);
        }
        for (long seed = 1; seed <= 200; seed++) {
            Random random = new Random(seed);
            int rows = random.nextInt(40);
            Class<?>[] types = {Long.class, Double.class, Boolean.class, String.class};
            Batches.Column[] columns = new Batches.Column[pins.size()];
            int c = 0;
            for (String name : pins.keySet()) {
                Class<?> type = types[random.nextInt(types.length)];
                Object[] vals = new Object[rows];
                for (int i = 0; i < rows; i++) {
                    vals[i] = arbitrary(random, type);
                }
                columns[c++] = col(name, type, vals);
            }
            RecordStages stages = stages(pins);
            try (VectorSchemaRoot out = stages.applyPerPollBatch(root(allocator, columns))) {
                assertThat(out.getRowCount()).as("seed %d", seed).isEqualTo(rows);
                for (var v : out.getFieldVectors()) {
                    assertThat(v.getValueCount()).isEqualTo(rows);
                }
            }
        }
    }

    private static Object arbitrary(Random r, Class<?> type) {
        if (r.nextInt(6) == 0) {
            return null;
        }
        if (type == Long.class) {
            return r.nextBoolean() ? r.nextLong() : (long) r.nextInt(3);
        }
        if (type == Double.class) {
            double[] specials = {0.0, -0.0, 1.0, 1.9, 1e300, -1e-300, Double.MAX_VALUE};
            return r.nextBoolean() ? specials[r.nextInt(specials.length)] : r.nextGaussian() * 1e6;
        }
        if (type == Boolean.class) {
            return r.nextBoolean();
        }
        String[] strings = {"", "true", "0", "42", "-9223372036854775808", "99999999999999999999999",
                "2.5", "1e5", "{\"a\":[1,2]}", "[]", "2024-01-01 00:00:00", "2024-01-01T00:00:00.1234567",
                "urn:uuid:0123abcd-4567-89ab-cdef-0123456789ab", "{0123abcd456789abcdef0123456789ab}", "é✓",
                "\u0000", "null", "NaN", "-inf"};
        if (r.nextBoolean()) {
            return strings[r.nextInt(strings.length)];
        }
        char[] chars = new char[r.nextInt(40)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) (r.nextBoolean() ? r.nextInt(128) : r.nextInt(0xD7FF));
        }
        return new String(chars);
    }

    private RecordStages stages(Map<String, PinnedType> pins) {
        return new RecordStages(dev.millpond.config.RecordHandlingConfig.disabled().withTypedColumns(pins), metrics,
                allocator);
    }

    @SafeVarargs
    private static <T> List<Object> list(T... values) {
        return Arrays.asList((Object[]) values);
    }
}
