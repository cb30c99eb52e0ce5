package dev.millpond.config;

import dev.millpond.vocabulary.Identifiers;
import java.util.regex.Pattern;

/**
 * Shape check for DUCKLAKE_PARTITION_BY, beyond the original's character allowlist: a comma-separated list of
 * partition keys, each a column ({@code team_id}) or a transform call ({@code year(_inserted_at)},
 * {@code bucket(8, id)}). The original passed any allowed characters to {@code SET PARTITIONED BY}, so a typo such as
 * {@code year(_inserted_at),,} or an unbalanced parenthesis only failed on the first write, and the sink tolerates
 * that failure: the table silently stayed unpartitioned. Refusing at startup turns it into a config error.
 */
final class PartitionExpression {

    private static final String IDENT = Identifiers.RULE;
    private static final String ARG = "(?:" + IDENT + "|[0-9]+)";
    private static final String KEY = "\\s*" + IDENT + "\\s*(?:\\(\\s*" + ARG + "(?:\\s*,\\s*" + ARG + ")*\\s*\\)\\s*)?";
    private static final Pattern LIST = Pattern.compile(KEY + "(?:," + KEY + ")*");

    private PartitionExpression() {
    }

    static boolean isWellFormed(String expression) {
        return LIST.matcher(expression).matches();
    }
}
