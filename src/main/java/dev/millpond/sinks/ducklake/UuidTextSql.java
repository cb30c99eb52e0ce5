package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.vocabulary.UuidText;


/**
 * The uuid pin's text grammar as a DuckDB expression, for a VARCHAR batch column headed for a live UUID column.
 *
 * <p>Accepted shapes (the original's uuid wire form): canonical 8-4-4-4-12 hex or 32 bare hex digits, hex in any case,
 * either optionally wrapped in {@code {...}} or prefixed with the lower-case {@code urn:uuid:}. Anything else becomes
 * NULL. DuckDB's own VARCHAR→UUID cast is not enough on its own: it accepts hyphens at any offset
 * ({@code 0123-4567-89ab-...} parses) and refuses {@code urn:uuid:}, and its implicit form fails the whole INSERT on
 * one bad value. So the grammar is checked with a regular expression first and only a validated body is cast.
 *
 * <p>Evaluated inside DuckDB so the Arrow batch is never copied. The grammar is {@link UuidText#REGEX}, the one the
 * typed-column pin parses in Java; one table of cases holds both to it.
 */
final class UuidTextSql {

    static final String GRAMMAR = UuidText.REGEX;

    private UuidTextSql() {
    }

    /** A UUID, or NULL when {@code textExpression} is not one of the accepted shapes. */
    static String parse(String textExpression) {
        return "CASE WHEN regexp_full_match(" + textExpression + ", " + DuckLakeSql.literal(GRAMMAR) + ") "
                + "THEN TRY_CAST(regexp_replace(" + textExpression + ", '^urn:uuid:|[{}]', '', 'g') AS UUID) END";
    }
}
