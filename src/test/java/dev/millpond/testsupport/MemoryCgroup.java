package dev.millpond.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A cgroup v1 memory group with a pod's limit, for the app under test: the kernel holds the process (heap, native,
 * DuckDB, page cache it dirties) to the limit and OOM-kills past it, as the kubelet's cgroup does.
 */
public final class MemoryCgroup implements AutoCloseable {

    static final Path ROOT = Path.of("/sys/fs/cgroup/memory");

    private final Path dir;

    private MemoryCgroup(Path dir) {
        this.dir = dir;
    }

    /** @throws IllegalStateException naming what is missing when cgroup v1's memory controller is not writable */
    public static MemoryCgroup create(String name, long limitBytes) {
        if (!Files.isRegularFile(ROOT.resolve("memory.limit_in_bytes"))) {
            throw new IllegalStateException("The benchmark runs the app inside a cgroup v1 memory group, but "
                    + ROOT + " is not a cgroup v1 memory controller (no memory.limit_in_bytes); run it where cgroup v1"
                    + " is mounted read-write and as root");
        }
        Path dir = ROOT.resolve(name);
        try {
            if (Files.isDirectory(dir)) {
                Files.delete(dir); // left over from a killed run; an empty group can be removed
            }
            Files.createDirectory(dir);
            MemoryCgroup group = new MemoryCgroup(dir);
            group.write("memory.limit_in_bytes", Long.toString(limitBytes));
            if (Files.exists(dir.resolve("memory.memsw.limit_in_bytes"))) {
                group.write("memory.memsw.limit_in_bytes", Long.toString(limitBytes)); // no swapping past the limit
            }
            long applied = group.read("memory.limit_in_bytes");
            if (applied != limitBytes) {
                throw new IllegalStateException("cgroup " + dir + " took limit " + applied + " instead of " + limitBytes);
            }
            return group;
        } catch (IOException e) {
            throw new IllegalStateException("Cannot create the benchmark's memory cgroup " + dir + " (" + e
                    + "): cgroup v1 at " + ROOT + " must be writable (run as root, mounted read-write)", e);
        }
    }

    public Path tasks() {
        return dir.resolve("tasks");
    }

    public long maxUsageBytes() {
        return read("memory.max_usage_in_bytes");
    }

    public long failCount() {
        return read("memory.failcnt");
    }

    /** {@code oom_kill} of {@code memory.oom_control}: processes the kernel killed for this group's limit. */
    public long oomKills() {
        try {
            for (String line : Files.readAllLines(dir.resolve("memory.oom_control"))) {
                if (line.startsWith("oom_kill ")) {
                    return Long.parseLong(line.substring(9).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // older kernels do not count them
        }
        return -1;
    }

    private long read(String file) {
        try {
            return Long.parseLong(Files.readString(dir.resolve(file)).trim());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + dir.resolve(file), e);
        }
    }

    private void write(String file, String value) throws IOException {
        Files.writeString(dir.resolve(file), value);
    }

    /** Removes the group; the process in it must have exited. */
    @Override
    public void close() {
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            System.out.println("[bench] could not remove " + dir + ": " + e);
        }
    }
}
