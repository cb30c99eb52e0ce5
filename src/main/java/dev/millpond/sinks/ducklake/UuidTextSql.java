package dev.millpond.sinks.ducklake;

/**
 * The uuid pin's text grammar as a DuckDB expression, for a VARCHAR batch column headed for a live UUID column.
 *
 * <p>Accepted shapes (the spec's uuid wire form): canonical 8-4-4-4-12 hex or 32 bare hex digits, hex in any case,
 * either optionally wrapped in {@code {...}} or prefixed with the lower-case {@code urn:uuid:}. Anything else becomes
 * NULL. DuckDB's own VARCHAR→UUID cast is not enough on its own: it accepts hyphens at any offset
 * ({@code 0123-4567-89ab-...} parses) and refuses {@code urn:uuid:}, and its implicit form fails the whole INSERT on
 * one bad value. So the grammar is checked with a regular expression first and only a validated body is cast.
 *
 * <p>Evaluated inside DuckDB so the Arrow batch is never copied. The typed-column pin ({@code dev.millpond.stages})
 * implements the same grammar in Java; the two should be checked against one shared case list when both exist.
 */
final class UuidTextSql {

    private static final String HEX_BODY =
            "(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9a-fA-F]{32})";
    static final String GRAMMAR = "(?:urn:uuid:)?" + HEX_BODY + "|\\{" + HEX_BODY + "\\}";

    private UuidTextSql() {
    }

    /** A UUID, or NULL when {@code textExpression} is not one of the accepted shapes. */
    static String parse(String textExpression) {
        return "CASE WHEN regexp_full_match(" + textExpression + ", " + DuckLakeSql.literal(GRAMMAR) + ") "
                + "THEN TRY_CAST(regexp_replace(" + textExpression + ", '^urn:uuid:|[{}]', '', 'g') AS UUID) END";
    }
}
