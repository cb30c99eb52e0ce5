package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.DuckLakeSql;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One batch column as the INSERT projects it onto the live table, so the INSERT never fails on data
 * (docs/decisions.md, "The batch is aligned to the live table before the insert").
 *
 * @param batchName  the payload's spelling
 * @param liveName   the live column's spelling (DuckDB matched them case-insensitively)
 * @param expression the projected value, already of the live type
 * @param mayNull    true when {@code expression} can turn a present value into NULL, so the sink must count those
 */
record AlignedColumn(String batchName, String liveName, String expression, boolean mayNull) {

    /** How a batch column reaches a live column of {@code liveType}. */
    static AlignedColumn of(Field field, LiveSchema.LiveColumn live) {
        String source = DuckLakeSql.ident(field.getName());
        String batchType = DuckDbTypes.of(field);
        String liveType = live.type();
        if (batchType.equals(liveType)) {
            return new AlignedColumn(field.getName(), live.name(), source, false);
        }
        if (liveType.equals("UUID") && batchType.equals("VARCHAR")) {
            // Live column wins: text is parsed with the pin's grammar, not DuckDB's looser all-or-nothing cast.
            return new AlignedColumn(field.getName(), live.name(), UuidTextSql.parse(source), true);
        }
        if (liveType.equals("VARCHAR")) {
            // Every type DuckDB holds has a text form (UUID lands as canonical lower-case text): nothing to null.
            return new AlignedColumn(field.getName(), live.name(), "CAST(" + source + " AS VARCHAR)", false);
        }
        return new AlignedColumn(field.getName(), live.name(), "TRY_CAST(" + source + " AS " + liveType + ")", true);
    }

    String projection() {
        return expression + " AS " + DuckLakeSql.ident(liveName);
    }

    /** Present in the batch but NULL after the cast. */
    String nulledCount() {
        return "count(*) FILTER (WHERE " + DuckLakeSql.ident(batchName) + " IS NOT NULL AND (" + expression + ") IS NULL)";
    }
}
