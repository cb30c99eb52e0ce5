package dev.millpond.memory;

import dev.millpond.config.ConfigException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory the process may use in all (heap, native, DuckDB, Arrow), from {@code MILLPOND_MEMORY_LIMIT} when set,
 * else the container's cgroup limit ({@code memory.max} of cgroup v2, {@code memory.limit_in_bytes} of v1).
 *
 * @param bytes  the limit
 * @param source where it came from, for the startup line
 */
public record ContainerMemory(long bytes, String source) {

    public static final String VARIABLE = "MILLPOND_MEMORY_LIMIT";

    /** cgroup v1 reports "no limit" as a page-rounded Long.MAX_VALUE; anything this large is no limit. */
    private static final long UNLIMITED = 1L << 60;
    private static final Pattern QUANTITY = Pattern.compile("(\\d+)\\s*([kKmMgGtT]i?)?[bB]?");

    /**
     * The limit from the environment, or the cgroup's, or empty when neither bounds the process.
     *
     * @throws ConfigException when {@code MILLPOND_MEMORY_LIMIT} is set but is not a size
     */
    public static Optional<ContainerMemory> detect(Map<String, String> env) {
        return detect(env, Path.of("/sys/fs/cgroup"));
    }

    static Optional<ContainerMemory> detect(Map<String, String> env, Path cgroupRoot) {
        String explicit = env.get(VARIABLE);
        if (explicit != null && !explicit.isBlank()) {
            return Optional.of(new ContainerMemory(parse(explicit), VARIABLE));
        }
        return cgroup(cgroupRoot.resolve("memory.max"))
                .or(() -> cgroup(cgroupRoot.resolve("memory").resolve("memory.limit_in_bytes")))
                .map(bytes -> new ContainerMemory(bytes, "cgroup"));
    }

    /**
     * A Kubernetes quantity ({@code 1Gi}, {@code 768Mi}), a DuckDB-style size ({@code 1GB}, {@code 512MiB}) or a
     * number of bytes. Decimal suffixes (k, M, G, T) are powers of 1000 as in Kubernetes; {@code Ki/Mi/Gi/Ti} of 1024.
     */
    static long parse(String value) {
        Matcher m = QUANTITY.matcher(value.trim());
        if (!m.matches()) {
            throw new ConfigException(VARIABLE + " must be a size such as 1Gi, 768Mi or 1073741824, got '" + value + "'");
        }
        long n = Long.parseLong(m.group(1));
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

    private static Optional<Long> cgroup(Path file) {
        try {
            String text = Files.readString(file).trim();
            if (text.equals("max")) {
                return Optional.empty();
            }
            long bytes = Long.parseLong(text);
            return bytes > 0 && bytes < UNLIMITED ? Optional.of(bytes) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
