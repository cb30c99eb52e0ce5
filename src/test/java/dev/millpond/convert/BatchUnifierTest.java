package dev.millpond.convert;

import static dev.millpond.convert.ArrowTestSupport.BIGINT;
import static dev.millpond.convert.ArrowTestSupport.DOUBLE;
import static dev.millpond.convert.ArrowTestSupport.VARCHAR;
import static dev.millpond.convert.ArrowTestSupport.names;
import static dev.millpond.convert.ArrowTestSupport.types;
import static dev.millpond.convert.ArrowTestSupport.utf8;
import static dev.millpond.convert.ArrowTestSupport.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class BatchUnifierTest {
    private BufferAllocator allocator;
    private JsonToArrow converter;
    private BatchUnifier unifier;

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator();
        converter = new JsonToArrow(allocator);
        unifier = new BatchUnifier(allocator);
    }

    @AfterEach
    void tearDown() {
        assertThat(allocator.getAllocatedMemory()).as("leaked Arrow memory").isZero();
        allocator.close();
    }

    private VectorSchemaRoot root(String... json) {
        ConvertedBatch b = converter.convert(utf8(json));
        assertThat(b.failed()).isZero();
        return b.root();
    }

    private static List<Object> allValues(UnifiedBatches u, String column) {
        List<Object> out = new ArrayList<>();
        for (VectorSchemaRoot r : u.batches()) {
            out.addAll(values(r, column));
        }
        return out;
    }

    private static void assertOneSchema(UnifiedBatches u) {
        for (VectorSchemaRoot r : u.batches()) {
            assertThat(r.getSchema()).isEqualTo(u.schema());
        }
    }

    static Stream<TypeMixCases.Case> cases() {
        return TypeMixCases.cases();
    }

    /** Every value in its own poll batch, every order of the batches: same type, same text per value. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void typeMixSplitIntoOneBatchPerValueInEveryOrder(TypeMixCases.Case c) {
        for (List<Integer> order : permutations(c.jsonValues().size())) {
            List<VectorSchemaRoot> batches = new ArrayList<>();
            List<Object> expected = new ArrayList<>();
            for (int i : order) {
                batches.add(root("{\"x\":" + c.jsonValues().get(i) + "}"));
                expected.add(c.expected().get(i));
            }
            try (UnifiedBatches u = unifier.unify(batches)) {
                assertOneSchema(u);
                assertThat(types(u.batches().get(0))).as("order %s", order).containsEntry("x", c.type());
                assertThat(allValues(u, "x")).as("order %s", order).containsExactlyElementsOf(expected);
            }
        }
    }

    /** Split in two halves: A then B and B then A give the same type and the same text for each value. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void typeMixSplitInTwoBatchesIsOrderIndependent(TypeMixCases.Case c) {
        int mid = c.jsonValues().size() / 2;
        List<String> a = records(c.jsonValues().subList(0, mid));
        List<String> b = records(c.jsonValues().subList(mid, c.jsonValues().size()));
        List<Object> expA = c.expected().subList(0, mid);
        List<Object> expB = c.expected().subList(mid, c.expected().size());

        try (UnifiedBatches ab = unifier.unify(List.of(root(a.toArray(String[]::new)), root(b.toArray(String[]::new))));
                UnifiedBatches ba = unifier.unify(List.of(root(b.toArray(String[]::new)), root(a.toArray(String[]::new))))) {
            assertThat(types(ab.batches().get(0))).containsEntry("x", c.type());
            assertThat(types(ba.batches().get(0))).containsEntry("x", c.type());
            List<Object> expectedAb = new ArrayList<>(expA);
            expectedAb.addAll(expB);
            List<Object> expectedBa = new ArrayList<>(expB);
            expectedBa.addAll(expA);
            assertThat(allValues(ab, "x")).containsExactlyElementsOf(expectedAb);
            assertThat(allValues(ba, "x")).containsExactlyElementsOf(expectedBa);
        }
    }

    private static List<String> records(List<String> jsonValues) {
        List<String> out = new ArrayList<>();
        for (String v : jsonValues) {
            out.add("{\"x\":" + v + "}");
        }
        return out;
    }

    @Test
    void documentedLimitIntsAlreadyPromotedToDoubleRenderAsFloats() {
        try (UnifiedBatches u = unifier.unify(List.of(root("{\"x\":1}", "{\"x\":2.5}"), root("{\"x\":true}")))) {
            assertThat(allValues(u, "x")).containsExactly("1.0", "2.5", "true");
        }
    }

    @Test
    void sameSchemaPassesThroughUntouched() {
        VectorSchemaRoot a = root("{\"a\":1,\"b\":\"x\"}");
        VectorSchemaRoot b = root("{\"a\":2,\"b\":\"y\"}", "{\"a\":3,\"b\":\"z\"}");
        try (UnifiedBatches u = unifier.unify(List.of(a, b))) {
            assertThat(u.batches()).hasSize(2);
            assertThat(u.batches().get(0)).isSameAs(a);
            assertThat(u.batches().get(1)).isSameAs(b);
            assertThat(u.rowCount()).isEqualTo(3);
        }
    }

    @Test
    void missingColumnsBecomeNullsAndUnionKeepsFirstAppearanceOrder() {
        VectorSchemaRoot a = root("{\"b\":1,\"a\":\"x\"}");
        VectorSchemaRoot b = root("{\"c\":true,\"b\":2}");
        VectorSchemaRoot c = root("{\"a\":\"y\",\"b\":3,\"c\":false}");
        try (UnifiedBatches u = unifier.unify(List.of(a, b, c))) {
            assertOneSchema(u);
            assertThat(names(u.batches().get(0))).containsExactly("b", "a", "c");
            assertThat(allValues(u, "b")).containsExactly(1L, 2L, 3L);
            assertThat(allValues(u, "a")).containsExactly("x", null, "y");
            assertThat(allValues(u, "c")).containsExactly(null, true, false);
            assertThat(u.schema().getFields()).allSatisfy(f -> assertThat(f.isNullable()).isTrue());
        }
    }

    @Test
    void allNullColumnTakesTheOtherBatchesType() {
        // The original failed here: int64 vs an all-null (string) column.
        VectorSchemaRoot a = root("{\"id\":1,\"p\":null}");
        VectorSchemaRoot b = root("{\"id\":2,\"p\":42}");
        try (UnifiedBatches u = unifier.unify(List.of(a, b))) {
            assertThat(types(u.batches().get(0))).containsEntry("p", BIGINT);
            assertThat(allValues(u, "p")).containsExactly(null, 42L);
        }
    }

    @Test
    void bigintAndDoubleBatchesBecomeDouble() {
        try (UnifiedBatches u = unifier.unify(List.of(root("{\"v\":9007199254740993}"), root("{\"v\":0.5}")))) {
            assertThat(types(u.batches().get(0))).containsEntry("v", DOUBLE);
            assertThat(allValues(u, "v")).containsExactly(9007199254740992.0, 0.5);
        }
    }

    @Test
    void bigIntegerTextBatchMakesOtherIntBatchesText() {
        try (UnifiedBatches u = unifier.unify(List.of(
                root("{\"v\":9223372036854775807}"), root("{\"v\":18446744073709551615}"), root("{\"v\":-5}")))) {
            assertThat(types(u.batches().get(0))).containsEntry("v", VARCHAR);
            assertThat(allValues(u, "v")).containsExactly("9223372036854775807", "18446744073709551615", "-5");
        }
    }

    @Test
    void batchAlreadyInTheUnifiedSchemaIsPassedThrough() {
        VectorSchemaRoot a = root("{\"a\":1,\"b\":\"x\"}");
        VectorSchemaRoot b = root("{\"a\":2}");
        try (UnifiedBatches u = unifier.unify(List.of(a, b))) {
            assertThat(u.batches().get(0)).isSameAs(a);
            assertThat(u.batches().get(1)).isNotSameAs(b);
            assertThat(allValues(u, "b")).containsExactly("x", null);
        }
    }

    @Test
    void emptyAndDegenerateInputs() {
        try (UnifiedBatches u = unifier.unify(List.of())) {
            assertThat(u.batches()).isEmpty();
            assertThat(u.schema().getFields()).isEmpty();
        }
        VectorSchemaRoot zeroRows = VectorSchemaRoot.create(
                new org.apache.arrow.vector.types.pojo.Schema(List.of(Vectors.nullableField("a", VARCHAR))), allocator);
        List<VectorSchemaRoot> in = new ArrayList<>(Arrays.asList(null, zeroRows, root("{\"a\":1}")));
        try (UnifiedBatches u = unifier.unify(in)) {
            assertThat(u.batches()).hasSize(1);
            assertThat(allValues(u, "a")).containsExactly(1L);
        }
    }

    // ------------------------------------------------------------------------------- types of later stages

    private VectorSchemaRoot timestamps(String name, long... micros) {
        Field f = new Field(name, FieldType.nullable(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")), null);
        TimeStampMicroTZVector v = (TimeStampMicroTZVector) f.createVector(allocator);
        v.allocateNew(micros.length);
        for (int i = 0; i < micros.length; i++) {
            v.set(i, micros[i]);
        }
        v.setValueCount(micros.length);
        return new VectorSchemaRoot(List.of(v));
    }

    private VectorSchemaRoot binary16(String name, byte[]... values) {
        Field f = new Field(name, FieldType.nullable(new ArrowType.FixedSizeBinary(16)), null);
        FixedSizeBinaryVector v = (FixedSizeBinaryVector) f.createVector(allocator);
        v.allocateNew(values.length);
        for (int i = 0; i < values.length; i++) {
            v.set(i, values[i]);
        }
        v.setValueCount(values.length);
        return new VectorSchemaRoot(List.of(v));
    }

    @Test
    void unknownTypesWithTheSameTypePassThrough() {
        VectorSchemaRoot a = timestamps("ts", 1_000_000L);
        VectorSchemaRoot b = root("{\"other\":1}");
        VectorSchemaRoot c = timestamps("ts", 2_000_000L, 3_000_000L);
        try (UnifiedBatches u = unifier.unify(List.of(a, b, c))) {
            assertOneSchema(u);
            assertThat(types(u.batches().get(0)))
                    .containsEntry("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"))
                    .containsEntry("other", BIGINT);
            assertThat(allValues(u, "ts")).containsExactly(1_000_000L, null, 2_000_000L, 3_000_000L);
        }
    }

    @Test
    void conflictWithAnUnknownTypeFallsBackToText() {
        byte[] uuid = new byte[16];
        uuid[15] = (byte) 0xAB;
        try (UnifiedBatches u = unifier.unify(List.of(
                timestamps("v", 1_000_000L), root("{\"v\":\"text\"}"), binary16("v", uuid)))) {
            assertThat(types(u.batches().get(0))).containsEntry("v", VARCHAR);
            assertThat(allValues(u, "v")).containsExactly("1000000", "text", "000000000000000000000000000000ab");
        }
    }

    @Test
    void allNullUnknownTypeTakesTheOtherType() {
        VectorSchemaRoot a = timestamps("ts", 5L);
        VectorSchemaRoot nulls = root("{\"ts\":null}");
        try (UnifiedBatches u = unifier.unify(List.of(nulls, a))) {
            assertThat(types(u.batches().get(0))).containsEntry("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"));
            assertThat(allValues(u, "ts")).containsExactly(null, 5L);
        }
    }

    // ------------------------------------------------------------------------------- property

    @Test
    void randomBatchesUnifyWithoutErrorsOrLeaks() {
        for (long seed : new long[] {11, 12, 13}) {
            Random random = new Random(seed);
            RandomJson gen = new RandomJson(random);
            List<VectorSchemaRoot> batches = new ArrayList<>();
            long rows = 0;
            for (int b = 0; b < 12; b++) {
                List<byte[]> values = new ArrayList<>();
                int n = 1 + random.nextInt(400);
                for (int i = 0; i < n; i++) {
                    values.add(gen.record());
                }
                ConvertedBatch converted = converter.convert(values);
                rows += converted.rows();
                if (converted.root() != null) {
                    batches.add(converted.root());
                }
            }
            Collections.shuffle(batches, random);
            try (UnifiedBatches u = unifier.unify(batches)) {
                assertThat(u.rowCount()).isEqualTo(rows);
                assertOneSchema(u);
                for (VectorSchemaRoot r : u.batches()) {
                    for (FieldVector v : r.getFieldVectors()) {
                        assertThat(v.getValueCount()).isEqualTo(r.getRowCount());
                        for (int i = 0; i < r.getRowCount(); i++) {
                            v.getObject(i);
                        }
                    }
                }
            }
            assertThat(allocator.getAllocatedMemory()).as("seed %d", seed).isZero();
        }
    }

    private static List<List<Integer>> permutations(int n) {
        List<List<Integer>> out = new ArrayList<>();
        permute(new ArrayList<>(), new boolean[n], out);
        return out;
    }

    private static void permute(List<Integer> prefix, boolean[] used, List<List<Integer>> out) {
        if (prefix.size() == used.length) {
            out.add(new ArrayList<>(prefix));
            return;
        }
        for (int i = 0; i < used.length; i++) {
            if (!used[i]) {
                used[i] = true;
                prefix.add(i);
                permute(prefix, used, out);
                prefix.remove(prefix.size() - 1);
                used[i] = false;
            }
        }
    }
}
