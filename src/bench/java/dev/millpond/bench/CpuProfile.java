package dev.millpond.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole process's CPU profile with async-profiler ({@code tools.profiler:async-profiler}, its Linux x86-64 agent
 * from the test classpath): every thread, Java and native frames alike (DuckDB's, the JVM's compilers and collector),
 * from the JVM's start to its exit, written in the collapsed-stacks format; and its summary: the share of each thread
 * and the frames that spend the most on their own.
 *
 * <p>{@code -Dbench.profile=<dir>} turns it on for every run of the benchmark.
 */
final class CpuProfile {

    private final Path agent;

    private CpuProfile(Path agent) {
        this.agent = agent;
    }

    /** Unpacks the agent into {@code dir}. */
    static CpuProfile in(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path agent = dir.resolve("libasyncProfiler.so");
        try (InputStream in = CpuProfile.class.getClassLoader().getResourceAsStream("linux-x64/libasyncProfiler.so")) {
            if (in == null) {
                throw new IllegalStateException("async-profiler's linux-x64/libasyncProfiler.so is not on the classpath"
                        + " (tools.profiler:async-profiler, test scope in the pom)");
            }
            Files.copy(in, agent, StandardCopyOption.REPLACE_EXISTING);
        }
        return new CpuProfile(agent);
    }

    /** The JVM option that profiles a run into {@code output}: CPU time sampled every 2 ms, per thread. */
    String option(Path output) {
        return "-agentpath:" + agent.toAbsolutePath() + "=start,event=cpu,interval=2ms,threads,file="
                + output.toAbsolutePath() + ",collapsed";
    }

    /** Prints the share of each thread (numbers dropped from names) and the top frames by own time. */
    static void summarise(Path collapsed, int top) throws IOException {
        if (!Files.exists(collapsed)) {
            System.out.println("[bench] profile: none written at " + collapsed);
            return;
        }
        Map<String, Long> threads = new HashMap<>();
        Map<String, Long> frames = new HashMap<>();
        long total = 0;
        for (String line : Files.readAllLines(collapsed)) {
            int space = line.lastIndexOf(' ');
            if (space <= 0) {
                continue;
            }
            long samples = Long.parseLong(line.substring(space + 1).trim());
            String[] stack = line.substring(0, space).split(";");
            String thread = stack[0].replaceAll("^\\[|]$", "").replaceAll(" tid=\\d+", "")
                    .replaceAll("[-#]?\\d+$", "").trim();
            threads.merge(thread, samples, Long::sum);
            frames.merge(stack[stack.length - 1], samples, Long::sum);
            total += samples;
        }
        System.out.printf("[bench] profile %s: %,d samples (2 ms of CPU each)%n", collapsed, total);
        print("by thread", threads, total, top);
        print("frames by own time", frames, total, top);
    }

    private static void print(String title, Map<String, Long> counts, long total, int top) {
        StringBuilder b = new StringBuilder("[bench]   " + title + ":");
        List<Map.Entry<String, Long>> sorted = counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top).toList();
        for (Map.Entry<String, Long> e : sorted) {
            b.append(String.format("%n[bench]     %5.1f %%  %s", 100.0 * e.getValue() / total, e.getKey()));
        }
        System.out.println(b);
    }
}
