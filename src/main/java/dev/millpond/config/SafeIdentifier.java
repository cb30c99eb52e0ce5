package dev.millpond.config;

import dev.millpond.vocabulary.Identifiers;

/** A configured name that goes into SQL unquoted-safe (table, schema, column names): {@link Identifiers}'s rule. */
final class SafeIdentifier {

    private SafeIdentifier() {
    }

    /** {@code value} when it follows the rule, else the error naming {@code variable}. */
    static String require(String variable, String value) {
        if (!Identifiers.isSafe(value)) {
            throw new ConfigException(variable + " contains unsafe characters: '" + value
                    + "' (must match ^" + Identifiers.RULE + "$)");
        }
        return value;
    }
}
