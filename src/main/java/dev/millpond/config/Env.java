package dev.millpond.config;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Read access to the environment with the original's rules for required, optional and integer values. */
final class Env {
    private final Map<String, String> vars;

    Env(Map<String, String> vars) {
        this.vars = Objects.requireNonNull(vars, "env");
    }

    Map<String, String> all() {
        return vars;
    }

    /** The raw value, or null when the variable is absent. Empty stays empty. */
    String raw(String name) {
        return vars.get(name);
    }

    boolean isPresent(String name) {
        return vars.containsKey(name);
    }

    /** Missing or empty fails with the original's exact message. */
    String required(String name) {
        String v = vars.get(name);
        if (v == null || v.isEmpty()) {
            throw new ConfigException("Required environment variable " + name + " is not set");
        }
        return v;
    }

    /** Absent or empty gives {@code fallback}. */
    String orDefaultIfEmpty(String name, String fallback) {
        String v = vars.get(name);
        return v == null || v.isEmpty() ? fallback : v;
    }

    /** Absent gives {@code fallback}; a present value (even empty) is returned as is, like {@code os.environ.get}. */
    String orDefault(String name, String fallback) {
        return vars.getOrDefault(name, fallback);
    }

    /** Absent or empty gives an empty Optional. */
    Optional<String> optionalNonEmpty(String name) {
        String v = vars.get(name);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    /** An integer knob: absent gives the default, a present value (even empty) must parse as a Python int. */
    long longKnob(String name, long fallback) {
        String v = vars.get(name);
        return v == null ? fallback : PythonInt.parseLong(name, v);
    }

    int intKnob(String name, int fallback) {
        String v = vars.get(name);
        return v == null ? fallback : PythonInt.parseInt(name, v);
    }

    /** {@code true} or {@code false} (any case, surrounding blanks ignored); absent or empty gives the default. */
    boolean booleanFlag(String name, boolean fallback) {
        String v = vars.get(name);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        return switch (v.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ConfigException(name + " must be true or false, got '" + v + "'");
        };
    }

    int requiredInt(String name) {
        return PythonInt.parseInt(name, required(name));
    }
}
