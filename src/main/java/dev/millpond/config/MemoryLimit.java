package dev.millpond.config;

import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MILLPOND_MEMORY_LIMIT: the memory the process may use in all, when the operator states it instead of leaving it to
 * the container's cgroup limit ({@code dev.millpond.memory.ContainerMemory} reads that one).
 */
public final class MemoryLimit {

    public static final String VARIABLE = "MILLPOND_MEMORY_LIMIT";

    private static final Pattern QUANTITY = Pattern.compile("(\\d+)\\s*([kKmMgGtT]i?)?[bB]?");

    private MemoryLimit() {
    }

    /**
     * The stated limit in bytes; empty when unset or blank.
     *
     * @throws ConfigException when it is set but is not a size
     */
    public static OptionalLong fromEnvironment(Map<String, String> vars) {
        return parse(new Env(vars));
    }

    static OptionalLong parse(Env env) {
        String explicit = env.raw(VARIABLE);
        return explicit == null || explicit.isBlank() ? OptionalLong.empty() : OptionalLong.of(bytes(explicit));
    }

    /**
     * A Kubernetes quantity ({@code 1Gi}, {@code 768Mi}), a DuckDB-style size ({@code 1GB}, {@code 512MiB}) or a
     * number of bytes. Decimal suffixes (k, M, G, T) are powers of 1000 as in Kubernetes; {@code Ki/Mi/Gi/Ti} of 1024.
     */
    public static long bytes(String value) {
        Matcher m = QUANTITY.matcher(value.trim());
        if (!m.matches()) {
            throw new ConfigException(VARIABLE + " must be a size such as 1Gi, 768Mi or 1073741824, got '" + value
                    + "'");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new ConfigException(VARIABLE + " must be a positive size, got '" + value + "'");
        }
        String unit = m.group(2) == null ? "" : m.group(2).toLowerCase(Locale.ROOT);
        long factor = switch (unit) {
            case "" -> 1;
            case "k" -> 1_000L;
            case "m" -> 1_000_000L;
            case "g" -> 1_000_000_000L;
            case "t" -> 1_000_000_000_000L;
            case "ki" -> 1L << 10;
            case "mi" -> 1L << 20;
            case "gi" -> 1L << 30;
            default -> 1L << 40;
        };
        if (n <= 0 || n > Long.MAX_VALUE / factor) {
            throw new ConfigException(VARIABLE + " must be a positive size, got '" + value + "'");
        }
        return n * factor;
    }
}
