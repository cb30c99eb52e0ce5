package dev.millpond.config;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Read access to the environment with the original's rules for required, optional and integer values. Remembers
 * which names were consulted, so a test can tell a deployment's variables from ones nothing reads (a typo, a variable
 * of another destination).
 */
final class Env {
    /** Every variable with this prefix is read, as a librdkafka passthrough. */
    static final String PASSTHROUGH_PREFIX = "KAFKA_CONSUMER_";

    private final Map<String, String> vars;
    private final Set<String> consulted = new TreeSet<>();

    Env(Map<String, String> vars) {
        this.vars = Objects.requireNonNull(vars, "env");
    }

    /** Every variable; the passthrough reads the {@code KAFKA_CONSUMER_*} ones out of it. */
    Map<String, String> all() {
        vars.keySet().stream().filter(k -> k.startsWith(PASSTHROUGH_PREFIX)).forEach(consulted::add);
        return vars;
    }

    /** Refuses a secret among the variables read so far that is too short to keep out of logs. */
    void requireMaskableSecrets() {
        SecretVariables.requireMaskable(vars, consulted);
    }

    /** The names read so far, present or not. */
    Set<String> consulted() {
        return Set.copyOf(consulted);
    }

    /** The raw value, or null when the variable is absent. Empty stays empty. */
    String raw(String name) {
        consulted.add(name);
        return vars.get(name);
    }

    boolean isPresent(String name) {
        consulted.add(name);
        return vars.containsKey(name);
    }

    /** Missing or empty fails with the original's exact message. */
    String required(String name) {
        String v = raw(name);
        if (v == null || v.isEmpty()) {
            throw new ConfigException("Required environment variable " + name + " is not set");
        }
        return v;
    }

    /** Absent or empty gives {@code fallback}. */
    String orDefaultIfEmpty(String name, String fallback) {
        String v = raw(name);
        return v == null || v.isEmpty() ? fallback : v;
    }

    /** Absent gives {@code fallback}; a present value (even empty) is returned as is, like {@code os.environ.get}. */
    String orDefault(String name, String fallback) {
        return isPresent(name) ? raw(name) : fallback;
    }

    /** Absent or empty gives an empty Optional. */
    Optional<String> optionalNonEmpty(String name) {
        String v = raw(name);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    /** An integer knob: absent gives the default, a present value (even empty) must parse as a Python int. */
    long longKnob(String name, long fallback) {
        String v = raw(name);
        return v == null ? fallback : PythonInt.parseLong(name, v);
    }

    int intKnob(String name, int fallback) {
        String v = raw(name);
        return v == null ? fallback : PythonInt.parseInt(name, v);
    }

    /** {@code true} or {@code false} (any case, surrounding blanks ignored); absent or empty gives the default. */
    boolean booleanFlag(String name, boolean fallback) {
        String v = raw(name);
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
