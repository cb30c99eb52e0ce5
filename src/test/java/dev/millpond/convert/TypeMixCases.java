package dev.millpond.convert;

import static dev.millpond.convert.ArrowTestSupport.BIGINT;
import static dev.millpond.convert.ArrowTestSupport.BOOL;
import static dev.millpond.convert.ArrowTestSupport.DOUBLE;
import static dev.millpond.convert.ArrowTestSupport.VARCHAR;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Type mixes within one column (docs/decisions.md, "Type inference is order-independent"): the values → the column
 * type and the values read back.
 */
final class TypeMixCases {
    private TypeMixCases() {}

    record Case(String name, List<String> jsonValues, ArrowType type, List<Object> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Case c(String name, List<String> json, ArrowType type, Object... expected) {
        return new Case(name, json, type, Arrays.asList(expected));
    }

    static Stream<Case> cases() {
        return Stream.of(
                c("int", List.of("1", "2"), BIGINT, 1L, 2L),
                c("float", List.of("1.5", "2.0"), DOUBLE, 1.5, 2.0),
                c("bool", List.of("true", "false"), BOOL, true, false),
                c("string", List.of("\"a\"", "\"b\""), VARCHAR, "a", "b"),
                c("nested", List.of("{\"k\":1}", "[1, 2]"), VARCHAR, "{\"k\":1}", "[1,2]"),
                c("int+float", List.of("1", "2.5"), DOUBLE, 1.0, 2.5),
                c("float+int", List.of("2.5", "1"), DOUBLE, 2.5, 1.0),
                c("null+int", List.of("null", "1"), BIGINT, null, 1L),
                c("int+null", List.of("1", "null"), BIGINT, 1L, null),
                c("null+float", List.of("null", "1.5"), DOUBLE, null, 1.5),
                c("null+bool", List.of("null", "true"), BOOL, null, true),
                c("null+string", List.of("null", "\"s\""), VARCHAR, null, "s"),
                c("null+nested", List.of("null", "{}"), VARCHAR, null, "{}"),
                c("null only", List.of("null", "null"), VARCHAR, null, null),
                c("bool+int", List.of("true", "1"), VARCHAR, "true", "1"),
                c("int+bool", List.of("0", "false"), VARCHAR, "0", "false"),
                c("bool+float", List.of("false", "2.5"), VARCHAR, "false", "2.5"),
                c("int+string", List.of("1", "\"a\""), VARCHAR, "1", "a"),
                c("string+int", List.of("\"a\"", "-1"), VARCHAR, "a", "-1"),
                c("float+string", List.of("1.0", "\"1.0\""), VARCHAR, "1.0", "1.0"),
                c("float exp+string", List.of("1e20", "\"x\"", "1.5e-7"), VARCHAR, "1e20", "x", "1.5e-7"),
                c("bool+string", List.of("true", "\"true\""), VARCHAR, "true", "true"),
                c("string+nested", List.of("\"a\"", "{\"b\": [1, 2.0]}"), VARCHAR, "a", "{\"b\":[1,2.0]}"),
                c("int+nested", List.of("1", "[]"), VARCHAR, "1", "[]"),
                c("bool+nested", List.of("false", "{\"t\":true}"), VARCHAR, "false", "{\"t\":true}"),
                c("int+float+string", List.of("1", "2.5", "\"z\""), VARCHAR, "1", "2.5", "z"),
                c("int+bool+null", List.of("7", "null", "true"), VARCHAR, "7", null, "true"),
                c("bigint+int", List.of("9223372036854775808", "1"), VARCHAR, "9223372036854775808", "1"),
                c("negative bigint+float", List.of("-9223372036854775809", "0.5"), VARCHAR, "-9223372036854775809", "0.5"),
                c("uint64 max+null", List.of("18446744073709551615", "null"), VARCHAR, "18446744073709551615", null),
                c("int64 max+min", List.of("9223372036854775807", "-9223372036854775808"), BIGINT,
                        Long.MAX_VALUE, Long.MIN_VALUE));
    }
}
