package dev.millpond.testsupport;

import org.awaitility.core.ConditionTimeoutException;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

/**
 * The packaged millpond application ({@code target/quarkus-app/quarkus-run.jar}) running as a separate process, the
 * way Kubernetes runs it: configured only through environment variables, stopped with SIGTERM or killed with SIGKILL.
 */
public final class AppProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    private final int port;
    private final Path log;

    private AppProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    public static Path jar() {
        Path jar = Path.of(System.getProperty("millpond.app.jar", "target/quarkus-app/quarkus-run.jar"));
        if (!Files.exists(jar)) {
            throw new IllegalStateException("Packaged app not found at " + jar + "; run `./mvnw package` first");
        }
        return jar;
    }

    /**
     * The JDK that runs the app: {@code millpond.app.java} when set (the benchmark compares runtimes, e.g. the JDK 25
     * an image may run), else the one running the tests.
     */
    public static String javaHome() {
        String own = System.getProperty("millpond.app.java", "");
        return own.isBlank() ? System.getProperty("java.home") : own;
    }

    public static Path extensionDirectory() {
        return Path.of(System.getProperty("millpond.duckdb.extensions", ".duckdb-extensions")).toAbsolutePath();
    }

    /** Starts the app with exactly {@code env} (plus PATH/JAVA_HOME) on a free port; output goes to {@code log}. */
    public static AppProcess start(Map<String, String> env, Path log) throws IOException {
        return start(env, log, List.of("-Xmx1g"), Integer::toString);
    }

    /** As {@link #start(Map, Path)}, with MILLPOND_HTTP_PORT spelled by {@code portText} (e.g. {@code 38_123}). */
    public static AppProcess start(Map<String, String> env, Path log, IntFunction<String> portText)
            throws IOException {
        return start(env, log, List.of("-Xmx1g"), portText);
    }

    /** As {@link #start(Map, Path)} with this heap flag, e.g. {@code -Xmx614m} as the StatefulSet's 1 GiB pod gets. */
    public static AppProcess start(Map<String, String> env, Path log, String heap) throws IOException {
        return start(env, log, List.of(heap), Integer::toString);
    }

    /** As {@link #start(Map, Path)}, with these JVM options (heap, GC, NMT …) instead of {@code -Xmx1g}. */
    public static AppProcess start(Map<String, String> env, Path log, List<String> jvmOptions) throws IOException {
        return start(env, log, jvmOptions, Integer::toString);
    }

    /**
     * As {@link #start(Map, Path, List)}, inside the memory cgroup whose {@code tasks} file is given: a shell writes
     * its own pid there and then execs the JVM, so the JVM is in the group from its first allocation (and sizes
     * {@code -XX:MaxRAMPercentage} from the group's limit) and {@link #pid()} is the JVM's pid.
     */
    public static AppProcess startInCgroup(Map<String, String> env, Path log, List<String> jvmOptions, Path tasks)
            throws IOException {
        return start(env, log, jvmOptions, Integer::toString,
                List.of("/bin/sh", "-c", "echo $$ > \"$0\" && exec \"$@\"", tasks.toString()));
    }

    private static AppProcess start(Map<String, String> env, Path log, List<String> jvmOptions,
                                    IntFunction<String> portText) throws IOException {
        return start(env, log, jvmOptions, portText, List.of());
    }

    private static AppProcess start(Map<String, String> env, Path log, List<String> jvmOptions,
                                    IntFunction<String> portText, List<String> launcher) throws IOException {
        int port = freePort();
        String java = Path.of(javaHome(), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(launcher);
        cmd.add(java);
        cmd.addAll(jvmOptions);
        // No module flags: the jar's manifest carries what Arrow and DuckDB need, as for anyone who runs it.
        cmd.addAll(List.of("-jar", jar().toAbsolutePath().toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> penv = pb.environment();
        penv.keySet().removeIf(k -> !k.equals("PATH") && !k.equals("JAVA_HOME") && !k.equals("HOME"));
        penv.put("MILLPOND_HTTP_PORT", portText.apply(port));
        penv.put("MILLPOND_DUCKDB_EXTENSION_DIR", extensionDirectory().toString());
        penv.put("MILLPOND_LOG_FORMAT", "text");
        penv.putAll(env);
        Files.createDirectories(log.toAbsolutePath().getParent());
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        return new AppProcess(pb.start(), port, log);
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    public int port() {
        return port;
    }

    public Path log() {
        return log;
    }

    public long pid() {
        return process.pid();
    }

    /** The process's peak resident set so far (VmHWM from /proc), in bytes; what a pod memory limit is held to. */
    public long peakRssBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("no VmHWM for pid " + pid());
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** GET a path; returns status and body, or status -1 when nothing answers yet. */
    public Http get(String path) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return new Http(r.statusCode(), r.body());
        } catch (IOException e) {
            return new Http(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Http(-1, "interrupted");
        }
    }

    public record Http(int status, String body) {
    }

    public String metrics() {
        return get("/metrics").body();
    }

    /**
     * Sum of a metric's samples whose label set contains every given {@code name="value"} pair; empty when the series
     * does not exist.
     */
    public OptionalDouble metric(String name, String... labelPairs) {
        return metricIn(metrics(), name, labelPairs);
    }

    /** {@link MetricsText#metric}, kept under this name for the tests that scrape the app. */
    public static OptionalDouble metricIn(String exposition, String name, String... labelPairs) {
        return MetricsText.metric(exposition, name, labelPairs);
    }

    /** Polls {@code condition} until true or the deadline; fails with the app's log tail. */
    public void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        await(what, timeout, Duration.ofMillis(200), condition);
    }

    /** As {@link #await(String, Duration, BooleanSupplier)}, checking every {@code interval}. */
    public void await(String what, Duration timeout, Duration interval, BooleanSupplier condition)
            throws InterruptedException {
        try {
            Await.within(timeout, what).pollInterval(interval).until(() -> {
                if (condition.getAsBoolean()) {
                    return true;
                }
                if (!process.isAlive()) {
                    throw new AssertionError("millpond exited (" + process.exitValue() + ") while waiting for " + what
                            + "\n" + logTail());
                }
                return false;
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("Timed out waiting for " + what + "\n" + logTail(), e);
        }
    }

    /** Whether the app's log so far contains {@code text}. */
    public boolean logContains(String text) {
        try {
            return logText().contains(text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Waits until the app's log contains {@code text}. */
    public void awaitLog(String text, Duration timeout) throws InterruptedException {
        await("'" + text + "' in the log", timeout, () -> logContains(text));
    }

    /** Waits until {@code groupId} has committed every partition of {@code topic} up to its end offset as of now. */
    public void awaitCommittedToEnd(KafkaBroker kafka, String topic, String groupId, Duration timeout)
            throws InterruptedException {
        Map<Integer, Long> end = kafka.endOffsets(topic);
        await("offsets committed to the end", timeout, () -> end.equals(kafka.committedOffsets(groupId, topic)));
    }

    /**
     * Checks, once a second for {@code duration}, what a pod waiting out an outage shows its kubelet: still running,
     * {@code /healthz} never 503 and {@code /readyz} never 200, and each probe gave its verdict (200, 503) at least
     * once. A probe that gets no answer in time (-1) on a loaded machine is not a verdict.
     */
    public void assertAliveButNotReadyFor(Duration duration) throws InterruptedException {
        long started = System.nanoTime();
        int alive = 0;
        int notReady = 0;
        while (System.nanoTime() - started < duration.toNanos()) {
            if (!process.isAlive()) {
                throw new AssertionError("millpond exited (" + process.exitValue() + ") while it should wait\n"
                        + logTail());
            }
            int health = get("/healthz").status();
            int ready = get("/readyz").status();
            if (health == 503 || ready == 200) {
                throw new AssertionError("/healthz " + health + ", /readyz " + ready + " while waiting out an outage"
                        + "\n" + logTail());
            }
            alive += health == 200 ? 1 : 0;
            notReady += ready == 503 ? 1 : 0;
            Thread.sleep(1_000);
        }
        if (alive == 0 || notReady == 0) {
            throw new AssertionError("/healthz answered 200 " + alive + " times, /readyz 503 " + notReady + " times");
        }
    }

    /** SIGTERM, then wait for the exit code. */
    public int stop(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("millpond did not exit within " + timeout + " of SIGTERM\n" + logTail());
        }
        return process.exitValue();
    }

    /** SIGKILL: no shutdown hook, no final flush, like an OOM kill or a node loss. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    public int waitForExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("millpond still running after " + timeout + "\n" + logTail());
        }
        return process.exitValue();
    }

    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    public String logText() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor();
        }
    }
}
