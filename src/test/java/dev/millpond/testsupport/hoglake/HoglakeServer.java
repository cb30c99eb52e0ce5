package dev.millpond.testsupport.hoglake;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A hoglake control plane for tests: real HTTP on 127.0.0.1, catalog state in memory, the writer-path routes of the
 * wire contract with its status codes, envelope and order of checks. Data files are never opened (the real server
 * does not open them either); writers upload them to the test S3 server and register footers here.
 *
 * <p>Faults on demand: answer the next commits with {@code 503 commit_queue_timeout} + {@code Retry-After: 1}, or
 * apply the next commits and lose their responses (the connection ends mid-body), as a timeout or reset would.
 */
public final class HoglakeServer implements AutoCloseable {

    private static final Pattern BUCKET_PATH = Pattern.compile("s3://[a-z0-9][a-z0-9.\\-]{1,61}[a-z0-9](/.*)?");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request as received, for tests that check what a client sent. */
    public record Recorded(String method, String path, String query, String body) {
    }

    private final HttpServer http;
    private final ExecutorService executor;
    private final Map<String, Catalog> catalogs = new ConcurrentHashMap<>();
    private final List<Recorded> requests = new ArrayList<>();
    private final AtomicInteger commitQueueTimeouts = new AtomicInteger();
    private final AtomicInteger lostCommitResponses = new AtomicInteger();

    private HoglakeServer(HttpServer http, ExecutorService executor) {
        this.http = http;
        this.executor = executor;
    }

    public static HoglakeServer start() {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
            ExecutorService executor = Executors.newFixedThreadPool(8, r -> {
                Thread t = new Thread(r, "hoglake-test-server");
                t.setDaemon(true);
                return t;
            });
            http.setExecutor(executor);
            HoglakeServer server = new HoglakeServer(http, executor);
            http.createContext("/", server::handle);
            http.start();
            return server;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The server root; clients append {@code /v1}. */
    public String url() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    // ---- faults and inspection ----

    /** The next {@code n} commits are answered 503 {@code commit_queue_timeout} with {@code Retry-After: 1}. */
    public void answerNextCommitsWithQueueTimeout(int n) {
        commitQueueTimeouts.set(n);
    }

    /** The next {@code n} commits are applied, then their responses are cut off mid-body. */
    public void loseNextCommitResponses(int n) {
        lostCommitResponses.set(n);
    }

    public List<Recorded> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /** Creates a catalog directly (as an operator would), bypassing HTTP. */
    public void createCatalog(String name, String dataPath) {
        catalogs.put(name, new Catalog(name, dataPath));
    }

    public long headSnapshot(String catalog) {
        Catalog c = catalogs.get(catalog);
        synchronized (c) {
            return c.head;
        }
    }

    public long schemaVersion(String catalog) {
        Catalog c = catalogs.get(catalog);
        synchronized (c) {
            return c.schemaVersion;
        }
    }

    /** The registered files of a live table, as stored (stats sanitized, with {@code snapshot_id}). */
    public List<JsonNode> files(String catalog, String namespace, String table) {
        Catalog c = catalogs.get(catalog);
        synchronized (c) {
            return List.copyOf(c.table(namespace, table).files);
        }
    }

    public UUID tableUuid(String catalog, String namespace, String table) {
        Catalog c = catalogs.get(catalog);
        synchronized (c) {
            return c.table(namespace, table).uuid;
        }
    }

    public void dropTable(String catalog, String namespace, String table) {
        catalogs.get(catalog).dropTable(namespace, table);
    }

    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
    }

    // ---- HTTP ----

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
            String rawPath = exchange.getRequestURI().getRawPath();
            String query = exchange.getRequestURI().getRawQuery();
            byte[] raw;
            try (InputStream in = exchange.getRequestBody()) {
                raw = in.readAllBytes();
            }
            synchronized (requests) {
                requests.add(new Recorded(method, rawPath, query, new String(raw, StandardCharsets.UTF_8)));
            }
            try {
                Response r = route(exchange, method, rawPath, query, raw);
                if (r.lose) {
                    // Headers promise a body that never comes, and the IOException makes the JDK server drop the
                    // connection: the client sees it end mid-response, as after a reset.
                    exchange.getResponseHeaders().set("Connection", "close");
                    exchange.sendResponseHeaders(r.status, 1 << 16);
                    throw new IOException("response deliberately lost");
                }
                send(exchange, r.status, r.body);
            } catch (ApiError e) {
                if (e.status == 503) {
                    exchange.getResponseHeaders().set("Retry-After", "1");
                }
                send(exchange, e.status, e.body());
            } catch (RuntimeException e) {
                send(exchange, 500, JsonNodeFactory.instance.objectNode().put("error", "internal_error")
                        .put("detail", String.valueOf(e)));
            }
        }
    }

    private record Response(int status, JsonNode body, boolean lose) {
        static Response of(int status, JsonNode body) {
            return new Response(status, body, false);
        }
    }

    private static void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
        if (body == null) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private Response route(HttpExchange exchange, String method, String rawPath, String query, byte[] raw) {
        if (rawPath.equals("/livez") || rawPath.equals("/healthz")) {
            return Response.of(200, JsonNodeFactory.instance.objectNode().put("status", "ok"));
        }
        if (!rawPath.startsWith("/v1/")) {
            throw ApiError.notFound("no route " + rawPath);
        }
        List<String> p = Arrays.stream(rawPath.substring(4).split("/", -1))
                .map(s -> URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8)).toList();
        JsonNode body = method.equals("POST") ? body(exchange, raw) : null;
        String route = method + " " + shape(p);
        return switch (route) {
            case "POST catalogs" -> createCatalog(body);
            case "GET catalogs/*" -> Response.of(200, catalog(p.get(1)).json());
            case "GET catalogs/*/namespaces" -> {
                Catalog c = catalog(p.get(1));
                synchronized (c) {
                    ArrayNode out = JsonNodeFactory.instance.arrayNode();
                    c.namespaces.keySet().forEach(ns -> out.add(c.namespaceJson(ns)));
                    yield Response.of(200, out);
                }
            }
            case "GET catalogs/*/namespaces/*" -> {
                Catalog c = catalog(p.get(1));
                synchronized (c) {
                    if (!c.namespaces.containsKey(p.get(3))) {
                        throw ApiError.notFound("namespace " + p.get(3) + " not found");
                    }
                    yield Response.of(200, c.namespaceJson(p.get(3)));
                }
            }
            case "POST catalogs/*/namespaces" -> {
                Shape.object(body, "CreateNamespace", Set.of("name"), Set.of());
                String name = Shape.string(body, "name");
                yield Response.of(201, catalog(p.get(1)).createNamespace(name));
            }
            case "POST catalogs/*/namespaces/*/tables" -> {
                Shape.object(body, "CreateTable", Set.of("name", "columns"), Set.of());
                Shape.string(body, "name");
                Shape.array(body, "columns").forEach(Shape::columnDef);
                yield Response.of(201, catalog(p.get(1)).createTable(p.get(3), body));
            }
            case "GET catalogs/*/namespaces/*/tables/*" -> {
                boolean totals = !"totals=false".equals(query);
                Catalog c = catalog(p.get(1));
                synchronized (c) {
                    yield Response.of(200, c.table(p.get(3), p.get(5)).json(c.head, totals, null));
                }
            }
            case "DELETE catalogs/*/namespaces/*/tables/*" -> {
                catalog(p.get(1)).dropTable(p.get(3), p.get(5));
                yield Response.of(204, null);
            }
            case "POST catalogs/*/namespaces/*/tables/*/alter" -> {
                Shape.object(body, "AlterTable", Set.of("ops"), Set.of());
                JsonNode ops = Shape.array(body, "ops");
                if (ops.isEmpty()) {
                    throw ApiError.badRequest("ops must not be empty");
                }
                ops.forEach(HoglakeServer::alterOpShape);
                yield Response.of(200, catalog(p.get(1)).alter(p.get(3), p.get(5), ops));
            }
            case "POST catalogs/*/commit" -> commit(p.get(1), body, false);
            case "POST catalogs/*/commit/prepared" -> commit(p.get(1), body, true);
            default -> throw ApiError.notFound("no route " + method + " " + rawPath);
        };
    }

    /** The path with its name segments replaced by {@code *}, for routing. */
    private static String shape(List<String> p) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < p.size(); i++) {
            boolean nameSlot = i % 2 == 1 && !(i == 3 && p.get(2).equals("commit"));
            b.append(i == 0 ? "" : "/").append(nameSlot ? "*" : p.get(i));
        }
        return b.toString();
    }

    private static JsonNode body(HttpExchange exchange, byte[] raw) {
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw ApiError.badRequest("Content-Type must be application/json");
        }
        try {
            JsonNode n = JSON.readTree(raw);
            if (n == null || n.isNull() || n.isMissingNode()) {
                throw ApiError.badRequest("request body must not be null");
            }
            return n;
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw ApiError.badRequest("unreadable body");
        }
    }

    private Catalog catalog(String name) {
        Catalog c = catalogs.get(name);
        if (c == null) {
            throw ApiError.notFound("catalog " + name + " not found");
        }
        return c;
    }

    private Response createCatalog(JsonNode body) {
        Shape.object(body, "CreateCatalog", Set.of("name", "data_path"), Set.of());
        String name = Shape.string(body, "name");
        String dataPath = Shape.string(body, "data_path");
        if (!Catalog.NAME.matcher(name).matches()) {
            throw ApiError.validation("invalid catalog name '" + name + "'");
        }
        if (dataPath.isBlank() || dataPath.length() > 512
                || dataPath.chars().anyMatch(ch -> Character.isWhitespace(ch) || Character.isISOControl(ch))
                || !BUCKET_PATH.matcher(dataPath).matches()
                || Arrays.stream(dataPath.substring(5).split("/")).anyMatch(s -> s.equals(".") || s.equals(".."))) {
            throw ApiError.validation("invalid data_path '" + dataPath + "'");
        }
        synchronized (catalogs) {
            if (catalogs.containsKey(name)) {
                throw ApiError.alreadyExists("catalog " + name + " already exists");
            }
            String mine = dataPath.endsWith("/") ? dataPath : dataPath + "/";
            for (Catalog other : catalogs.values()) {
                String theirs = other.dataPath.endsWith("/") ? other.dataPath : other.dataPath + "/";
                if (mine.startsWith(theirs) || theirs.startsWith(mine)) {
                    throw ApiError.validation("data_path overlaps catalog " + other.name);
                }
            }
            Catalog c = new Catalog(name, dataPath);
            catalogs.put(name, c);
            return Response.of(201, c.json());
        }
    }

    private static void alterOpShape(JsonNode op) {
        if (!op.isObject() || !op.path("op").isTextual()) {
            throw ApiError.badRequest("an alter op needs a string 'op'");
        }
        String name = op.get("op").asText();
        switch (name) {
            case "add_column" -> {
                Shape.object(op, name, Set.of("op", "column"), Set.of("parent"));
                Shape.string(op, "parent");
                Shape.columnDef(op.get("column"));
            }
            case "drop_column" -> strings(op, name, "name");
            case "promote_column" -> strings(op, name, "name", "to");
            case "rename_column" -> strings(op, name, "from", "to");
            case "rename_table" -> strings(op, name, "new_name");
            case "set_partition_spec" -> {
                Shape.object(op, name, Set.of("op", "fields"), Set.of());
                Shape.array(op, "fields");
            }
            case "set_sort_order" -> {
                Shape.object(op, name, Set.of("op", "sort_fields"), Set.of());
                Shape.array(op, "sort_fields");
            }
            default -> throw ApiError.badRequest("unknown alter op '" + name + "'");
        }
        if (name.equals("rename_column") || name.equals("rename_table")) {
            throw ApiError.validation(name + " is not implemented by this test server");
        }
    }

    private static void strings(JsonNode op, String name, String... fields) {
        Set<String> required = new java.util.HashSet<>(List.of(fields));
        required.add("op");
        Shape.object(op, name, required, Set.of());
        for (String f : fields) {
            Shape.string(op, f);
        }
    }

    private Response commit(String catalogName, JsonNode body, boolean prepared) {
        Catalog c = catalog(catalogName);
        Shape.object(body, "CommitRequest", Set.of(),
                Set.of("idempotency_key", "read_snapshot", "appends", "deletes", "author", "message"));
        UUID key = Shape.uuid(body, "idempotency_key");
        Shape.int64(body, "read_snapshot");
        Shape.string(body, "author");
        Shape.string(body, "message");
        JsonNode appends = Shape.array(body, "appends");
        if (appends != null) {
            appends.forEach(HoglakeServer::appendShape);
        }
        JsonNode deletes = Shape.array(body, "deletes");
        if (deletes != null && !deletes.isEmpty()) {
            throw ApiError.validation("deletes are not implemented by this test server");
        }
        if (key == null) {
            c.checkPaths(body); // a request without a key has its paths checked before it queues for the lock
        }
        if (commitQueueTimeouts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw ApiError.commitQueueTimeout();
        }
        JsonNode result = c.commit(body, key, prepared);
        boolean lose = lostCommitResponses.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
        return new Response(200, result, lose);
    }

    private static void appendShape(JsonNode append) {
        Shape.object(append, "TableAppend", Set.of("namespace", "table", "files"), Set.of("expected_table_uuid"));
        Shape.string(append, "namespace");
        Shape.string(append, "table");
        Shape.uuid(append, "expected_table_uuid");
        for (JsonNode f : Shape.array(append, "files")) {
            Shape.object(f, "FileRegistration", Set.of("path", "record_count", "file_size_bytes"),
                    Set.of("footer_size", "column_stats", "partition_values", "split_offsets"));
            Shape.string(f, "path");
            Shape.int64(f, "record_count");
            Shape.int64(f, "file_size_bytes");
            Shape.int64(f, "footer_size");
            JsonNode pv = Shape.array(f, "partition_values");
            if (pv != null) {
                pv.forEach(v -> {
                    if (!v.isTextual() && !v.isNull()) {
                        throw ApiError.badRequest("partition_values are strings or null");
                    }
                });
            }
            JsonNode stats = Shape.array(f, "column_stats");
            if (stats != null) {
                for (JsonNode s : stats) {
                    Shape.object(s, "ColumnStats", Set.of("field_id", "value_count", "null_count"),
                            Set.of("nan_count", "size_bytes", "lower_bound", "upper_bound"));
                    Shape.int64(s, "field_id");
                    Shape.int64(s, "value_count");
                    Shape.int64(s, "null_count");
                    Shape.int64(s, "nan_count");
                    Shape.int64(s, "size_bytes");
                    for (String b : List.of("lower_bound", "upper_bound")) {
                        String v = Shape.string(s, b);
                        if (v != null) {
                            try {
                                java.util.Base64.getDecoder().decode(v);
                            } catch (IllegalArgumentException e) {
                                throw ApiError.badRequest(b + " must be base64");
                            }
                        }
                    }
                }
            }
        }
    }
}
