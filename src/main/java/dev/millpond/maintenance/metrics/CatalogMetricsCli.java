package dev.millpond.maintenance.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.millpond.config.MetricsExporterConfig;
import dev.millpond.maintenance.MaintenanceSettings;
import dev.millpond.maintenance.ToolProcess;
import dev.millpond.observability.SecretRedactor;
import org.jboss.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code ducklake-metrics}: lake-state gauges from the DuckLake catalog, for Prometheus. Daemon mode serves
 * {@code /metrics}, {@code /-/healthy} and {@code /-/ready} on DUCKLAKE_METRICS_PORT (9100); {@code --once} runs every
 * query once, POSTs the exposition to the push URL and exits (1 on a connect failure, no successful query, or a
 * failed push). The JDK's HTTP server: three plain-text endpoints on their own port, outside the writer's Quarkus.
 */
@Command(name = "ducklake-metrics", mixinStandardHelpOptions = true, sortOptions = false,
        description = "DuckLake catalog metrics exporter (catalog from DUCKLAKE_RDS_*, DUCKDB_S3_*, DUCKLAKE_DATA_PATH).")
public final class CatalogMetricsCli implements Callable<Integer> {

    private static final Logger LOG = Logger.getLogger(CatalogMetricsCli.class);

    private final Map<String, String> env;
    private final PrintWriter out;
    /** Set by daemon mode once listening (tests read the port); counted down on stop. */
    volatile HttpServer server;
    final CountDownLatch stop = new CountDownLatch(1);

    @Option(names = "--tenant", description = "The tenant label on every series (or DUCKLAKE_TENANT); required")
    String tenant;

    @Option(names = "--once", description = "Run every query once, push, exit")
    boolean once;

    @Option(names = "--push-url", description = "Where --once POSTs the exposition (or DUCKLAKE_METRICS_PUSH_URL)")
    String pushUrl;

    @Option(names = "--config", description = "YAML file of extra queries (or DUCKLAKE_METRICS_CONFIG)")
    Path config;

    @Option(names = "--disable", split = ",", description = "Query names not to run (or DUCKLAKE_METRICS_DISABLE)")
    List<String> disable;

    @Option(names = "--liveness-timeout-seconds", description = "Default 300 (or DUCKLAKE_METRICS_LIVENESS_TIMEOUT)")
    Integer livenessTimeoutSeconds;

    @Option(names = "--duckdb-memory-limit", description = "DuckDB memory_limit (or DUCKLAKE_METRICS_MEMORY_LIMIT)")
    String memoryLimit;

    @Option(names = "--list-queries", description = "Print the queries that would run, and exit")
    boolean listQueries;

    @Option(names = "--port", hidden = true, description = "Overrides DUCKLAKE_METRICS_PORT (tests use 0)")
    Integer port;

    public CatalogMetricsCli(Map<String, String> env, PrintWriter out) {
        this.env = env;
        this.out = out;
    }

    public static void main(String[] args) {
        ToolProcess.run("ducklake-metrics", env -> command(env, new PrintWriter(System.out, true)).execute(args));
    }

    public static CommandLine command(Map<String, String> env, PrintWriter out) {
        CommandLine cli = new CommandLine(new CatalogMetricsCli(env, out));
        cli.setOut(out);
        SecretRedactor redactor = SecretRedactor.fromEnvironment(env);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println(redactor.redact("ducklake-metrics failed: " + e.getMessage()));
            return 1;
        });
        return cli;
    }

    private List<CatalogQuery> queries(MetricsExporterConfig settings) throws IOException {
        Optional<Path> file = config != null ? Optional.of(config) : settings.queriesFile();
        List<CatalogQuery> user = file.isEmpty() ? List.of() : QueryCatalog.load(file.get());
        Set<String> disabled = disable != null ? Set.copyOf(disable) : settings.disabled();
        return QueryCatalog.resolve(BuiltinQueries.all(), user, disabled);
    }

    @Override
    public Integer call() throws Exception {
        MetricsExporterConfig exporter = MetricsExporterConfig.fromEnvironment(env);
        List<CatalogQuery> queries = queries(exporter);
        if (listQueries) {
            for (CatalogQuery q : queries) {
                out.println(q.name() + "\tevery " + q.interval().toSeconds() + "s\tlabels " + q.labels() + "\t"
                        + q.sql());
            }
            return 0;
        }
        String t = tenant != null ? tenant : exporter.tenant().orElse(null);
        if (t == null || t.isBlank()) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--tenant (or DUCKLAKE_TENANT) is required");
        }
        Optional<String> memory = memoryLimit != null ? Optional.of(memoryLimit).filter(s -> !s.isBlank())
                : exporter.memoryLimit();
        MaintenanceSettings settings = MaintenanceSettings.fromEnvironment(env);
        CatalogMetricsState state = new CatalogMetricsState(t);
        try (CatalogMetricsCollector collector = new CatalogMetricsCollector(settings, memory, queries, state)) {
            return once ? pushOnce(collector, state, queries.size(), exporter)
                    : daemon(collector, state, exporter);
        }
    }

    private int pushOnce(CatalogMetricsCollector collector, CatalogMetricsState state, int queries,
                         MetricsExporterConfig exporter) throws Exception {
        String url = pushUrl != null ? pushUrl : exporter.pushUrl().orElse(null);
        try {
            collector.connect();
        } catch (Exception e) {
            LOG.errorf("Connecting to the lake failed: %s", e.getMessage());
            return 1;
        }
        int ok = collector.runAllOnce();
        if (ok == 0) {
            LOG.error("No query succeeded");
            return 1;
        }
        String body = state.exposition();
        if (url == null || url.isBlank()) {
            out.print(body);
            out.flush();
            return 0;
        }
        try {
            HttpResponse<String> response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()
                    .send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                            .header("Content-Type", "text/plain; version=0.0.4")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                LOG.errorf("Push to %s failed: HTTP %d %s", url, response.statusCode(), response.body());
                return 1;
            }
        } catch (IOException e) {
            LOG.errorf("Push to %s failed: %s", url, e.toString());
            return 1;
        }
        LOG.infof("Pushed %d series from %d of %d queries to %s", body.lines().filter(l -> !l.startsWith("#")).count(),
                ok, queries, url);
        return 0;
    }

    private int daemon(CatalogMetricsCollector collector, CatalogMetricsState state, MetricsExporterConfig exporter)
            throws Exception {
        int listen = port != null ? port : exporter.port();
        long timeoutNanos = livenessTimeoutSeconds != null ? TimeUnit.SECONDS.toNanos(livenessTimeoutSeconds)
                : exporter.livenessTimeout().toNanos();
        HttpServer http = HttpServer.create(new InetSocketAddress(listen), 0);
        http.createContext("/metrics", x -> reply(x, 200, state.exposition()));
        http.createContext("/-/ready", x -> reply(x, collector.everConnected() ? 200 : 503,
                collector.everConnected() ? "ready\n" : "not connected yet\n"));
        http.createContext("/-/healthy", x -> {
            long now = System.nanoTime();
            long inFlight = collector.inFlightSinceNanos();
            if (inFlight != 0 && now - inFlight > timeoutNanos) {
                state.livenessFailure("in_flight");
                reply(x, 503, "unhealthy: a query has been running for " + (now - inFlight) / 1_000_000_000L + " s\n");
            } else if (now - collector.lastTickNanos() > timeoutNanos) {
                state.livenessFailure("stale_tick");
                reply(x, 503, "unhealthy: no tick for " + (now - collector.lastTickNanos()) / 1_000_000_000L + " s\n");
            } else {
                reply(x, 200, "healthy\n");
            }
        });
        http.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread th = new Thread(r, "ducklake-metrics-http");
            th.setDaemon(true);
            return th;
        }));
        http.start();
        server = http;
        LOG.infof("ducklake-metrics listening on port %d", http.getAddress().getPort());
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r,
                "ducklake-metrics-collector"));
        ticker.scheduleWithFixedDelay(collector::tick, 0, 1, TimeUnit.SECONDS);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
        stop.await();
        ticker.shutdownNow();
        ticker.awaitTermination(30, TimeUnit.SECONDS);
        http.stop(0);
        return 0;
    }

    private static void reply(HttpExchange x, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        x.sendResponseHeaders(status, bytes.length);
        try (OutputStream os = x.getResponseBody()) {
            os.write(bytes);
        }
    }
}
