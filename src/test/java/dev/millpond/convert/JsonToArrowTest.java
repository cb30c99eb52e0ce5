package dev.millpond.convert;

import static dev.millpond.convert.ArrowTestSupport.BIGINT;
import static dev.millpond.convert.ArrowTestSupport.BOOL;
import static dev.millpond.convert.ArrowTestSupport.DOUBLE;
import static dev.millpond.convert.ArrowTestSupport.VARCHAR;
import static dev.millpond.convert.ArrowTestSupport.bytes;
import static dev.millpond.convert.ArrowTestSupport.concat;
import static dev.millpond.convert.ArrowTestSupport.names;
import static dev.millpond.convert.ArrowTestSupport.types;
import static dev.millpond.convert.ArrowTestSupport.utf8;
import static dev.millpond.convert.ArrowTestSupport.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonToArrowTest {
    private BufferAllocator allocator;
    private JsonToArrow converter;

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator();
        converter = new JsonToArrow(allocator);
    }

    @AfterEach
    void tearDown() {
        assertThat(allocator.getAllocatedMemory()).as("leaked Arrow memory").isZero();
        allocator.close();
    }

    private static byte[] s(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------------------------------ skipping

    static Stream<Arguments> unparseable() {
        return Stream.of(
                Arguments.of("empty payload", new byte[0]),
                Arguments.of("whitespace only", s("   \n")),
                Arguments.of("top-level array", s("[{\"a\":1}]")),
                Arguments.of("top-level string", s("\"a\"")),
                Arguments.of("top-level number", s("42")),
                Arguments.of("top-level null", s("null")),
                Arguments.of("top-level true", s("true")),
                Arguments.of("NaN", s("{\"a\":NaN}")),
                Arguments.of("Infinity", s("{\"a\":Infinity}")),
                Arguments.of("-Infinity", s("{\"a\":-Infinity}")),
                Arguments.of("nested NaN", s("{\"n\":[1,NaN]}")),
                Arguments.of("truncated", s("{\"a\":1")),
                Arguments.of("truncated nested", s("{\"a\":{\"b\":[1,2}")),
                Arguments.of("trailing garbage", s("{\"a\":1}x")),
                Arguments.of("two objects", s("{\"a\":1}{\"a\":2}")),
                Arguments.of("trailing comma", s("{\"a\":1,}")),
                Arguments.of("single quotes", s("{'a':1}")),
                Arguments.of("unquoted key", s("{a:1}")),
                Arguments.of("leading zero", s("{\"a\":01}")),
                Arguments.of("comment", s("{\"a\":1/*c*/}")),
                Arguments.of("raw newline in string", s("{\"a\":\"x\ny\"}")),
                Arguments.of("lone surrogate escape", s("{\"a\":\"\\ud800\"}")),
                Arguments.of("lone surrogate escape nested", s("{\"a\":[\"\\udc00x\"]}")),
                Arguments.of("NUL inside a string", concat(s("{\"a\":\"x"), bytes(0, '"', '}'))),
                Arguments.of("NUL after the object", concat(s("{\"a\":1}"), bytes(0))),
                Arguments.of("BOM", concat(bytes(0xEF, 0xBB, 0xBF), s("{\"a\":1}"))),
                Arguments.of("invalid UTF-8 0xFF", concat(s("{\"a\":\"x"), bytes(0xFF, '"', '}'))),
                Arguments.of("overlong UTF-8", concat(s("{\"a\":\""), bytes(0xC0, 0xAF, '"', '}'))),
                Arguments.of("CESU surrogate bytes", concat(s("{\"a\":\""), bytes(0xED, 0xA0, 0xBD, 0xED, 0xBA, 0x80, '"', '}'))),
                Arguments.of("latin-1 key", concat(s("{\""), bytes(0xE9, '"', ':', '1', '}'))),
                Arguments.of("UTF-16LE", "{\"a\":1}".getBytes(StandardCharsets.UTF_16LE)),
                Arguments.of("UTF-16 with BOM", "{\"a\":1}".getBytes(StandardCharsets.UTF_16)),
                Arguments.of("bad record with a new key", s("{\"zz\":1,\"a\":NaN}")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unparseable")
    void skipsUnparseableValueAlone(String name, byte[] value) {
        try (ConvertedBatch b = converter.convert(List.of(value))) {
            assertThat(b.root()).isNull();
            assertThat(b.rows()).isZero();
            assertThat(b.failed()).isEqualTo(1);
            assertThat(b.nbytes()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unparseable")
    void skipsUnparseableValueAmongGoodOnes(String name, byte[] value) {
        List<byte[]> batch = List.of(s("{\"a\":1}"), value, s("{\"a\":2}"));
        try (ConvertedBatch b = converter.convert(batch)) {
            assertThat(b.rows()).isEqualTo(2);
            assertThat(b.failed()).isEqualTo(1);
            assertThat(names(b.root())).containsExactly("a");
            assertThat(values(b.root(), "a")).containsExactly(1L, 2L);
        }
    }

    @Test
    void aFailedRecordLeavesNoTraceInColumnsItTouched() {
        try (ConvertedBatch b = converter.convert(utf8(
                "{\"a\":1,\"b\":\"x\"}",
                "{\"b\":true,\"a\":\"text\",\"n\":{\"k\":[1,2]},\"new\":1,\"z\":NaN}",
                "{\"a\":2}"))) {
            assertThat(b.failed()).isEqualTo(1);
            assertThat(names(b.root())).containsExactly("a", "b");
            assertThat(types(b.root())).containsEntry("a", BIGINT).containsEntry("b", VARCHAR);
            assertThat(values(b.root(), "a")).containsExactly(1L, 2L);
            assertThat(values(b.root(), "b")).containsExactly("x", null);
        }
    }

    @Test
    void acceptsSurroundingWhitespace() {
        try (ConvertedBatch b = converter.convert(utf8(" \t\r\n{\"a\":1}\n ", "{\"a\" : 2 }"))) {
            assertThat(b.rows()).isEqualTo(2);
            assertThat(values(b.root(), "a")).containsExactly(1L, 2L);
        }
    }

    @Test
    void batchOfEmptyObjectsHasNoColumnsAndCountsEveryValueAsFailed() {
        try (ConvertedBatch b = converter.convert(utf8("{}", "{}", " {} "))) {
            assertThat(b.root()).isNull();
            assertThat(b.rows()).isZero();
            assertThat(b.failed()).isEqualTo(3);
        }
        try (ConvertedBatch b = converter.convert(List.of())) {
            assertThat(b.root()).isNull();
            assertThat(b.failed()).isZero();
        }
    }

    @Test
    void emptyObjectAmongOthersIsARowOfNulls() {
        try (ConvertedBatch b = converter.convert(utf8("{}", "{\"a\":1}"))) {
            assertThat(b.rows()).isEqualTo(2);
            assertThat(b.failed()).isZero();
            assertThat(values(b.root(), "a")).containsExactly(null, 1L);
        }
    }

    // ------------------------------------------------------------------------------------------ shape

    @Test
    void columnsAreUnionInFirstAppearanceOrderAndMissingKeysAreNull() {
        try (ConvertedBatch b = converter.convert(utf8(
                "{\"b\":1,\"a\":\"x\"}", "{\"c\":true,\"a\":\"y\"}", "{\"d\":null,\"b\":2}"))) {
            assertThat(names(b.root())).containsExactly("b", "a", "c", "d");
            assertThat(values(b.root(), "b")).containsExactly(1L, null, 2L);
            assertThat(values(b.root(), "a")).containsExactly("x", "y", null);
            assertThat(values(b.root(), "c")).containsExactly(null, true, null);
            assertThat(values(b.root(), "d")).containsExactly(null, null, null);
            assertThat(types(b.root()))
                    .containsEntry("b", BIGINT).containsEntry("a", VARCHAR)
                    .containsEntry("c", BOOL).containsEntry("d", VARCHAR);
            assertThat(b.root().getSchema().getFields()).allSatisfy(f -> assertThat(f.isNullable()).isTrue());
        }
    }

    @Test
    void duplicateKeysLastWins() {
        try (ConvertedBatch b = converter.convert(utf8(
                "{\"a\":1,\"b\":\"x\",\"a\":2}", "{\"a\":\"s\",\"a\":null}", "{\"b\":{\"k\":1},\"b\":\"y\"}"))) {
            assertThat(names(b.root())).containsExactly("a", "b");
            assertThat(values(b.root(), "a")).containsExactly(2L, null, null);
            assertThat(values(b.root(), "b")).containsExactly("x", null, "y");
            // "s" was overwritten by null, so column a never really mixed int and string.
            assertThat(types(b.root())).containsEntry("a", BIGINT);
        }
    }

    @Test
    void allNullColumnIsKeptAsVarcharOfNulls() {
        try (ConvertedBatch b = converter.convert(utf8("{\"a\":1,\"n\":null}", "{\"a\":2,\"n\":null}"))) {
            assertThat(types(b.root())).containsEntry("n", VARCHAR);
            assertThat(values(b.root(), "n")).containsExactly(null, null);
        }
    }

    @Test
    void scalarTypes() {
        try (ConvertedBatch b = converter.convert(utf8(
                "{\"i\":-7,\"f\":2.5,\"t\":true,\"s\":\"héllo \\\"q\\\" \\u00e9 😀\",\"e\":1e2}"))) {
            assertThat(types(b.root())).containsExactly(
                    java.util.Map.entry("i", BIGINT), java.util.Map.entry("f", DOUBLE),
                    java.util.Map.entry("t", BOOL), java.util.Map.entry("s", VARCHAR),
                    java.util.Map.entry("e", DOUBLE));
            assertThat(values(b.root(), "i")).containsExactly(-7L);
            assertThat(values(b.root(), "f")).containsExactly(2.5);
            assertThat(values(b.root(), "t")).containsExactly(true);
            assertThat(values(b.root(), "s")).containsExactly("héllo \"q\" é 😀");
            assertThat(values(b.root(), "e")).containsExactly(100.0);
        }
    }

    // ------------------------------------------------------------------------------------------ numbers

    static Stream<Arguments> integers() {
        return Stream.of(
                Arguments.of("9223372036854775807", BIGINT, Long.MAX_VALUE),
                Arguments.of("-9223372036854775808", BIGINT, Long.MIN_VALUE),
                Arguments.of("-0", BIGINT, 0L),
                Arguments.of("9223372036854775808", VARCHAR, "9223372036854775808"),
                Arguments.of("-9223372036854775809", VARCHAR, "-9223372036854775809"),
                Arguments.of("18446744073709551615", VARCHAR, "18446744073709551615"),
                Arguments.of("18446744073709551616", VARCHAR, "18446744073709551616"),
                Arguments.of("123456789012345678901234567890", VARCHAR, "123456789012345678901234567890"),
                Arguments.of("1e400", VARCHAR, "1e400"),
                Arguments.of("-1E+400", VARCHAR, "-1E+400"),
                Arguments.of("1e-400", DOUBLE, 0.0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("integers")
    void numbersAtTheEdges(String literal, ArrowType type, Object expected) {
        try (ConvertedBatch b = converter.convert(utf8("{\"x\":" + literal + "}"))) {
            assertThat(types(b.root())).containsEntry("x", type);
            assertThat(values(b.root(), "x")).containsExactly(expected);
        }
    }

    @Test
    void bigIntegerMakesTheWholeColumnExactText() {
        try (ConvertedBatch b = converter.convert(utf8(
                "{\"x\":1}", "{\"x\":9223372036854775808}", "{\"x\":-9223372036854775808}", "{\"x\":2.5}"))) {
            assertThat(types(b.root())).containsEntry("x", VARCHAR);
            assertThat(values(b.root(), "x"))
                    .containsExactly("1", "9223372036854775808", "-9223372036854775808", "2.5");
        }
    }

    // --------------------------------------------------------------------------------------- type mixes

    /** Values of column x in one batch → expected type and values. */
    static Stream<Arguments> mixes() {
        return TypeMixCases.cases().map(c -> Arguments.of(c.name(), c.jsonValues(), c.type(), c.expected()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mixes")
    void typeMixWithinOneBatch(String name, List<String> jsonValues, ArrowType type, List<Object> expected) {
        List<String> records = new ArrayList<>();
        for (String v : jsonValues) {
            records.add("{\"x\":" + v + "}");
        }
        try (ConvertedBatch b = converter.convert(utf8(records.toArray(String[]::new)))) {
            assertThat(b.failed()).isZero();
            assertThat(types(b.root())).containsEntry("x", type);
            assertThat(values(b.root(), "x")).containsExactlyElementsOf(expected);
        }
    }

    // ------------------------------------------------------------------------------------------ nested

    static Stream<Arguments> nested() {
        return Stream.of(
                Arguments.of("{}", "{}"),
                Arguments.of("[]", "[]"),
                Arguments.of(" { \"b\" : 1 , \"a\" : [ 1 , 2.50 , \"x\" , null , true , false ] } ",
                        "{\"b\":1,\"a\":[1,2.5,\"x\",null,true,false]}"),
                Arguments.of("{\"z\":{\"y\":{\"x\":[[],{}]}},\"a\":0}", "{\"z\":{\"y\":{\"x\":[[],{}]}},\"a\":0}"),
                Arguments.of("[\"\\u00e9\\u6771\\ud83d\\ude00\", \"é東😀\"]", "[\"é東😀\",\"é東😀\"]"),
                Arguments.of("{\"\\u00e9\":1}", "{\"é\":1}"),
                Arguments.of("[\"a\\\"b\\\\c\\/d\\n\\t\\r\\b\\f\\u0001\\u001f\\u007f\\u2028\"]",
                        "[\"a\\\"b\\\\c/d\\n\\t\\r\\b\\f\\u0001\\u001f\u007f\u2028\"]"),
                Arguments.of("[1.0, 1e20, 1.5e-7, 1E+2, -0.0, 0.00001, 1e-6, 1e16, 123456789012345678.0, 0.1]",
                        "[1.0,1e20,1.5e-7,100.0,-0.0,0.00001,1e-6,1e16,1.2345678901234568e17,0.1]"),
                Arguments.of("[-0, 18446744073709551616, -9223372036854775809, 1e400]",
                        "[-0,18446744073709551616,-9223372036854775809,1e400]"),
                Arguments.of("{\"a\":1,\"b\":2,\"a\":3}", "{\"a\":3,\"b\":2}"),
                Arguments.of("[{\"k\":{\"a\":1,\"a\":{\"b\":1,\"b\":[2]}}},{\"a\":1}]",
                        "[{\"k\":{\"a\":{\"b\":[2]}}},{\"a\":1}]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nested")
    void nestedValuesBecomeCompactJson(String json, String expected) {
        try (ConvertedBatch b = converter.convert(utf8("{\"n\":" + json + ",\"after\":1}"))) {
            assertThat(b.failed()).isZero();
            assertThat(types(b.root())).containsEntry("n", VARCHAR).containsEntry("after", BIGINT);
            assertThat(values(b.root(), "n")).containsExactly(expected);
            assertThat(values(b.root(), "after")).containsExactly(1L);
        }
    }

    @Test
    void manyNestedKeysUseTheHashedDuplicateCheck() {
        StringBuilder sb = new StringBuilder("{\"n\":{");
        StringBuilder expected = new StringBuilder("{");
        for (int i = 0; i < 100; i++) { // above the linear-scan limit, so the hashed check runs
            sb.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(i);
            expected.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(i == 5 ? 99 : i);
        }
        String distinct = sb + "}}";
        String duplicated = sb + ",\"k5\":99}}";
        expected.append('}');
        try (ConvertedBatch b = converter.convert(utf8(distinct, duplicated, distinct))) {
            List<Object> vals = values(b.root(), "n");
            assertThat(vals.get(1)).isEqualTo(expected.toString());
            assertThat(vals.get(0)).isEqualTo(vals.get(2)).isNotEqualTo(vals.get(1));
        }
    }

    // ------------------------------------------------------------------------------------------ sizes

    @Test
    void nbytesMatchesPyarrowExample() {
        String[] records = new String[1000];
        Arrays.fill(records, "{\"a\":1,\"b\":\"xyz\"}");
        try (ConvertedBatch b = converter.convert(utf8(records))) {
            assertThat(b.rows()).isEqualTo(1000);
            assertThat(b.nbytes()).isEqualTo(8000 + 4004 + 3000);
            assertThat(ArrowSizes.nbytes(b.root())).isEqualTo(15004);
        }
    }

    @Test
    void nbytesCountsValidityOnlyForColumnsWithNulls() {
        // 10 rows: a int64 with one null, t bool without nulls, s string with one null ("ab" x 9)
        List<String> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            records.add(i == 0 ? "{\"t\":true,\"s\":null}" : "{\"a\":" + i + ",\"t\":false,\"s\":\"ab\"}");
        }
        try (ConvertedBatch b = converter.convert(utf8(records.toArray(String[]::new)))) {
            long a = 8 * 10 + 2;
            long t = 2;
            long s = 4 * 11 + 18 + 2;
            assertThat(b.nbytes()).isEqualTo(a + t + s);
        }
    }

    // ------------------------------------------------------------------------------------------ property

    @Test
    void randomObjectsNeverThrowAndAccountForEveryValue() {
        for (long seed : new long[] {1, 2, 3, 42, 1234}) {
            Random random = new Random(seed);
            RandomJson gen = new RandomJson(random);
            List<byte[]> batch = new ArrayList<>();
            int n = 3000;
            for (int i = 0; i < n; i++) {
                batch.add(gen.record());
            }
            try (ConvertedBatch b = converter.convert(batch)) {
                assertThat(b.rows() + b.failed()).as("seed %d", seed).isEqualTo(n);
                assertThat(b.rows()).as("seed %d", seed).isGreaterThan(n / 2);
                if (b.root() != null) {
                    assertThat(b.root().getRowCount()).isEqualTo(b.rows());
                    assertThat(b.nbytes()).isPositive();
                    for (var v : b.root().getFieldVectors()) {
                        assertThat(v.getValueCount()).isEqualTo(b.rows());
                        for (int i = 0; i < b.rows(); i++) {
                            v.getObject(i); // every cell readable
                        }
                    }
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void validRandomObjectsAllParse() {
        Random random = new Random(7);
        RandomJson gen = new RandomJson(random);
        List<byte[]> batch = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            batch.add(gen.validRecord().getBytes(StandardCharsets.UTF_8));
        }
        Collections.shuffle(batch, random);
        try (ConvertedBatch b = converter.convert(batch)) {
            assertThat(b.failed()).isZero();
            assertThat(b.rows()).isEqualTo(2000);
        }
    }

    @Test
    void converterIsReusableAcrossBatches() {
        try (ConvertedBatch b1 = converter.convert(utf8("{\"a\":1}"));
                ConvertedBatch b2 = converter.convert(utf8("{\"b\":\"x\"}", "{\"b\":\"y\"}"))) {
            assertThat(names(b1.root())).containsExactly("a");
            assertThat(names(b2.root())).containsExactly("b");
            assertThat(values(b2.root(), "b")).containsExactly("x", "y");
        }
    }
}
