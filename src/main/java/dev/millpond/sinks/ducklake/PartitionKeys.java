package dev.millpond.sinks.ducklake;

import dev.millpond.vocabulary.Identifiers;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The columns of DUCKLAKE_PARTITION_BY whose values DuckLake records as they are: the bare column keys
 * ({@code team_id}, or {@code identity(team_id)}). The transforms ({@code year(ts)}, {@code bucket(8, id)}) record
 * numbers. DuckLake writes each recorded value into the Postgres catalog inside SQL text, which ends at a U+0000, so
 * a text value holding one fails the commit of every flush that carries it (measured with DuckDB 1.5.5: "unterminated
 * quoted string"), and the same for DuckLake's later move of an inlined flush into a parquet file.
 */
final class PartitionKeys {

    private static final Pattern IDENTITY = Pattern.compile("(?i)identity\\s*\\(\\s*(" + Identifiers.RULE + ")\\s*\\)");
    private static final Pattern COLUMN = Pattern.compile(Identifiers.RULE);

    private PartitionKeys() {
    }

    /** The keys of {@code expression} that record a column's value as it is, lower-cased. */
    static Set<String> valueColumns(String expression) {
        Set<String> columns = new LinkedHashSet<>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i <= expression.length(); i++) {
            char c = i < expression.length() ? expression.charAt(i) : ',';
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                String key = expression.substring(from, i).strip();
                Matcher identity = IDENTITY.matcher(key);
                if (COLUMN.matcher(key).matches()) {
                    columns.add(key.toLowerCase(Locale.ROOT));
                } else if (identity.matches()) {
                    columns.add(identity.group(1).toLowerCase(Locale.ROOT));
                }
                from = i + 1;
            }
        }
        return Set.copyOf(columns);
    }
}
