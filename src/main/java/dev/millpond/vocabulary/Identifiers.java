package dev.millpond.vocabulary;

import java.util.regex.Pattern;

/**
 * The one rule for a name millpond puts into SQL or a catalog unquoted-safe: table, schema and column names from the
 * configuration, payload keys that become columns, catalog metrics query names. Every layer checks names with this
 * rule, so a name the configuration accepts is one every sink accepts too.
 */
public final class Identifiers {

    /** The rule as regex text without anchors, for messages and for grammars built on it. */
    public static final String RULE = "[a-zA-Z_][a-zA-Z0-9_]*";

    private static final Pattern SAFE = Pattern.compile(RULE);

    private Identifiers() {
    }

    /** Whether {@code name} matches {@code ^[a-zA-Z_][a-zA-Z0-9_]*$} (ASCII letters, digits, underscore). */
    public static boolean isSafe(String name) {
        return SAFE.matcher(name).matches();
    }
}
