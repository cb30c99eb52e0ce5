package dev.millpond.bench;

import dev.millpond.testsupport.AppProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The app's CPU and GC counters at one moment, read from outside the process: user+system time of the whole process
 * and of each thread from {@code /proc/<pid>/stat} (threads grouped by name with their numbers dropped, so
 * {@code duckdb-worker-3} counts with its siblings), and the collectors' counts and times from {@code jstat -gc}.
 * Differences of two snapshots give the cost of the work between them, startup left out.
 *
 * @param nanos          when it was taken
 * @param cpuSeconds     user+system of the whole process, including threads that have ended
 * @param threadSeconds  user+system of the live threads by name
 * @param youngGcs       young collections so far ({@code YGC}); -1 when jstat did not answer
 * @param youngGcSeconds their time ({@code YGCT})
 * @param fullGcs        full collections ({@code FGC})
 * @param fullGcSeconds  their time ({@code FGCT})
 */
record ProcessSnapshot(long nanos, double cpuSeconds, Map<String, Double> threadSeconds, long youngGcs,
                       double youngGcSeconds, long fullGcs, double fullGcSeconds) {

    /** USER_HZ: the unit of /proc's times. */
    private static final double TICKS = ticksPerSecond();

    static ProcessSnapshot take(long pid) {
        long nanos = System.nanoTime();
        double cpu = cpu(Path.of("/proc", Long.toString(pid), "stat"));
        Map<String, Double> threads = new HashMap<>();
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
                            .replaceAll("[-#]?\\d+$", "").replaceAll("\\s+\\d+", "");
                    threads.merge(name, cpuOf(stat), Double::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            // the process is gone: the totals say so
        }
        long[] counts = {-1, -1};
        double[] times = {-1, -1};
        jstat(pid, counts, times);
        return new ProcessSnapshot(nanos, cpu, threads, counts[0], times[0], counts[1], times[1]);
    }

    private static double cpu(Path stat) {
        try {
            return cpuOf(Files.readString(stat));
        } catch (IOException e) {
            return Double.NaN;
        }
    }

    /** utime + stime: fields 14 and 15 of stat, counted after the parenthesised name (which may hold spaces). */
    private static double cpuOf(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS;
    }

    private static void jstat(long pid, long[] counts, double[] times) {
        try {
            // The app's own JDK: another release's jstat may not read its counters.
            Process p = new ProcessBuilder(Path.of(AppProcess.javaHome(), "bin", "jstat").toString(), "-gc",
                    Long.toString(pid)).redirectErrorStream(true).start();
            String[] lines = new String(p.getInputStream().readAllBytes()).trim().split("\n");
            p.waitFor();
            if (lines.length < 2) {
                return;
            }
            String[] head = lines[0].trim().split("\\s+");
            String[] values = lines[lines.length - 1].trim().split("\\s+");
            for (int i = 0; i < head.length && i < values.length; i++) {
                switch (head[i]) {
                    case "YGC" -> counts[0] = Long.parseLong(values[i]);
                    case "YGCT" -> times[0] = Double.parseDouble(values[i]);
                    case "FGC" -> counts[1] = Long.parseLong(values[i]);
                    case "FGCT" -> times[1] = Double.parseDouble(values[i]);
                    default -> { }
                }
            }
        } catch (IOException | RuntimeException e) {
            // no jstat (a JRE) or the process is gone: the counts stay -1
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static double ticksPerSecond() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            return Double.parseDouble(out);
        } catch (Exception e) {
            return 100;
        }
    }

    /** Thread CPU between {@code earlier} and this snapshot, by name, largest first. */
    Map<String, Double> threadSecondsSince(ProcessSnapshot earlier) {
        Map<String, Double> d = new HashMap<>();
        threadSeconds.forEach((name, s) -> d.put(name, s - earlier.threadSeconds.getOrDefault(name, 0.0)));
        return d;
    }

    /** The machine's load average over the last minute, to state beside every figure. */
    static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }
}
