package dev.millpond.memory;

import dev.millpond.config.MemoryLimit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The memory the process may use in all (heap, native, DuckDB, Arrow), from {@code MILLPOND_MEMORY_LIMIT} when set,
 * else the container's cgroup limit ({@code memory.max} of cgroup v2, {@code memory.limit_in_bytes} of v1).
 *
 * @param bytes  the limit
 * @param source where it came from, for the startup line
 */
public record ContainerMemory(long bytes, String source) {

    public static final String VARIABLE = MemoryLimit.VARIABLE;

    /** cgroup v1 reports "no limit" as a page-rounded Long.MAX_VALUE; anything this large is no limit. */
    private static final long UNLIMITED = 1L << 60;

    /**
     * The limit the operator stated (MILLPOND_MEMORY_LIMIT, read by {@link MemoryLimit}), or the cgroup's, or empty
     * when neither bounds the process.
     */
    public static Optional<ContainerMemory> detect(OptionalLong stated) {
        return detect(stated, Path.of("/sys/fs/cgroup"));
    }

    static Optional<ContainerMemory> detect(OptionalLong stated, Path cgroupRoot) {
        if (stated.isPresent()) {
            return Optional.of(new ContainerMemory(stated.getAsLong(), VARIABLE));
        }
        return cgroup(cgroupRoot.resolve("memory.max"))
                .or(() -> cgroup(cgroupRoot.resolve("memory").resolve("memory.limit_in_bytes")))
                .map(bytes -> new ContainerMemory(bytes, "cgroup"));
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
