package dev.millpond.observability;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import java.util.stream.Stream;

/**
 * The {@code process_*} series every Prometheus client exports and every Prometheus dashboard reads, with the names
 * and meanings of the Prometheus clients' process collector (the original's Python client included), read from
 * {@code /proc} on Linux:
 * <ul>
 *   <li>{@code process_resident_memory_bytes}, {@code process_virtual_memory_bytes}: {@code VmRSS} and
 *       {@code VmSize} of {@code /proc/self/status} — the RSS the kubelet compares with the memory limit, not the
 *       heap;</li>
 *   <li>{@code process_cpu_seconds_total}: user + system CPU time of the whole process;</li>
 *   <li>{@code process_open_fds}: entries of {@code /proc/self/fd}; {@code process_max_fds}: the soft
 *       {@code Max open files} limit;</li>
 *   <li>{@code process_start_time_seconds}: since the Unix epoch.</li>
 * </ul>
 * Micrometer's own system binder exports the same facts under other names ({@code process_files_open_files}, …),
 * which dashboards written for the original do not query; it is switched off so each fact has one series. Where {@code /proc} is missing nothing is registered, as the Python collector
 * does.
 */
@Singleton
public final class ProcessMetrics implements MeterBinder {

    private final Path proc;

    public ProcessMetrics() {
        this(Path.of("/proc/self"));
    }

    ProcessMetrics(Path proc) {
        this.proc = proc;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        if (!Files.isReadable(proc.resolve("status"))) {
            return;
        }
        Gauge.builder("process.resident.memory", this, m -> m.statusKiloBytes("VmRSS:") * 1024)
                .baseUnit("bytes").description("Resident memory size in bytes.").register(registry);
        Gauge.builder("process.virtual.memory", this, m -> m.statusKiloBytes("VmSize:") * 1024)
                .baseUnit("bytes").description("Virtual memory size in bytes.").register(registry);
        Gauge.builder("process.open.fds", this, ProcessMetrics::openFds)
                .description("Number of open file descriptors.").register(registry);
        Gauge.builder("process.max.fds", this, ProcessMetrics::maxFds)
                .description("Maximum number of open file descriptors.").register(registry);
        Gauge.builder("process.start.time", ManagementFactory.getRuntimeMXBean(), r -> r.getStartTime() / 1000.0)
                .baseUnit("seconds").description("Start time of the process since unix epoch in seconds.")
                .register(registry);
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            FunctionCounter.builder("process.cpu", os, o -> o.getProcessCpuTime() / 1e9)
                    .baseUnit("seconds").description("Total user and system CPU time spent in seconds.")
                    .register(registry);
        }
    }

    /** A {@code Name: <n> kB} line of {@code /proc/self/status}; NaN when it cannot be read. */
    double statusKiloBytes(String key) {
        return lines("status").filter(l -> l.startsWith(key)).findFirst()
                .map(l -> l.substring(key.length()).strip().split("\\s+")[0])
                .map(Double::parseDouble).orElse(Double.NaN);
    }

    double openFds() {
        try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
            return fds.count();
        } catch (IOException | UncheckedIOException e) {
            return Double.NaN;
        }
    }

    /** The soft limit of {@code Max open files  <soft>  <hard>  files} in {@code /proc/self/limits}. */
    double maxFds() {
        OptionalDouble soft = lines("limits").filter(l -> l.startsWith("Max open files"))
                .map(l -> l.substring("Max open files".length()).strip().split("\\s+")[0])
                .filter(v -> !v.equals("unlimited"))
                .mapToDouble(Double::parseDouble).findFirst();
        return soft.orElse(Double.NaN);
    }

    private Stream<String> lines(String file) {
        try {
            List<String> all = Files.readAllLines(proc.resolve(file));
            return all.stream();
        } catch (IOException | UncheckedIOException e) {
            return Stream.empty();
        }
    }
}
