package dev.millpond.config;

import java.util.regex.Pattern;

/**
 * Integer parsing with the rules of Python's {@code int(str)} (base 10), which the original used for every
 * integer knob: surrounding whitespace is ignored, one leading {@code +} or {@code -} is allowed, and single
 * underscores may separate digits ({@code 1_000}). Anything else ({@code 1__0}, {@code _1}, {@code 1_},
 * {@code 1.0}, {@code 0x10}, the empty string) is rejected. Python ints are unbounded; values outside the
 * Java type are rejected with the same kind of message rather than wrapped. Deliberate deviation: Python
 * also accepts non-ASCII Unicode decimal digits ({@code int("١٢") == 12}); we accept ASCII digits only.
 */
final class PythonInt {
    private static final Pattern LITERAL = Pattern.compile("[+-]?[0-9]+(?:_[0-9]+)*");

    private PythonInt() {
    }

    /** True when {@code raw} is an integer literal {@code int()} accepts (surrounding whitespace allowed). */
    static boolean isLiteral(String raw) {
        return LITERAL.matcher(strip(raw)).matches();
    }

    static long parseLong(String variable, String raw) {
        String s = strip(raw);
        if (!LITERAL.matcher(s).matches()) {
            throw invalid(variable, raw);
        }
        try {
            return Long.parseLong(s.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new ConfigException(variable + " is out of range: '" + raw + "'");
        }
    }

    static int parseInt(String variable, String raw) {
        long v = parseLong(variable, raw);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new ConfigException(variable + " is out of range: '" + raw + "'");
        }
        return (int) v;
    }

    private static ConfigException invalid(String variable, String raw) {
        return new ConfigException(variable + " must be an integer, got '" + raw + "'");
    }

    /** Python's str.strip() with no argument strips whitespace; Java's strip() uses the same notion. */
    private static String strip(String raw) {
        return raw.strip();
    }
}
