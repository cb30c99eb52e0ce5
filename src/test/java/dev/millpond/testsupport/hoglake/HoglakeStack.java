package dev.millpond.testsupport.hoglake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.S3Server;
import dev.millpond.testsupport.Services;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A hoglake destination for the packaged app: the contract's test server (in this JVM, on 127.0.0.1), a fresh catalog
 * whose data path is a fresh bucket of the shared S3 server, and the environment that points a pod at them. The rows
 * a test sees are those of the parquet files the server has registered, read back with DuckDB.
 */
public final class HoglakeStack implements AutoCloseable {

    public static final String NAMESPACE = "analytics";
    public static final String TABLE = "events";
    /** The table beside {@link #TABLE} that keeps the records that could not land as rows. */
    public static final String REJECTS = "_millpond_rejects";

    private final HoglakeServer server = HoglakeServer.start();
    private final S3Server s3 = Services.s3();
    private final String catalog = Services.uniqueName("c");
    private final String bucket = Services.uniqueName("hoglake");

    public HoglakeStack() {
        s3.createBucket(bucket);
    }

    public HoglakeServer server() {
        return server;
    }

    public String catalog() {
        return catalog;
    }

    /** Kafka plus every HOGLAKE_* variable; the catalog is created by the first pod (HOGLAKE_DATA_PATH). */
    public Map<String, String> environment(KafkaBroker kafka, String topic) {
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
        env.put("KAFKA_TOPIC", topic);
        env.put("REPLICA_COUNT", "1");
        env.put("POD_NAME", "millpond-0");
        env.put("MILLPOND_DESTINATION", "hoglake");
        env.put("HOGLAKE_URL", server.url());
        env.put("HOGLAKE_CATALOG", catalog);
        env.put("HOGLAKE_NAMESPACE", NAMESPACE);
        env.put("HOGLAKE_TABLE", TABLE);
        env.put("HOGLAKE_DATA_PATH", "s3://" + bucket + "/lake");
        env.put("HOGLAKE_S3_ENDPOINT", s3.endpointUrl().toString());
        env.put("HOGLAKE_S3_REGION", s3.region());
        env.put("HOGLAKE_S3_ACCESS_KEY", s3.accessKeyId());
        env.put("HOGLAKE_S3_SECRET_KEY", s3.secretAccessKey());
        env.put("HOGLAKE_REQUEST_TIMEOUT_S", "20");
        return env;
    }

    /** The registered files of the table; empty before the first write created it. */
    public List<JsonNode> files() {
        return files(TABLE);
    }

    /** The registered files of {@code table} in {@link #NAMESPACE}; empty before it exists. */
    public List<JsonNode> files(String table) {
        try {
            return server.files(catalog, NAMESPACE, table);
        } catch (RuntimeException e) { // no table yet
            return List.of();
        }
    }

    /** {count(*), count(DISTINCT column)} over every registered file, downloaded into {@code dir}. */
    public long[] countAndDistinct(String column, Path dir) throws Exception {
        List<List<Object>> rows = query(TABLE, dir, "SELECT count(*), count(DISTINCT " + column + ") FROM {files}");
        return rows.isEmpty() ? new long[]{0, 0}
                : new long[]{((Number) rows.get(0).get(0)).longValue(), ((Number) rows.get(0).get(1)).longValue()};
    }

    /**
     * The rows of {@code sql} run by DuckDB over every registered file of {@code table} (downloaded into {@code dir}),
     * which the query names {@code {files}}; no rows when the table has no file.
     */
    public List<List<Object>> query(String table, Path dir, String sql) throws Exception {
        List<String> local = new ArrayList<>();
        for (JsonNode f : files(table)) {
            local.add(download(dir, f.get("path").asText()).toString());
        }
        if (local.isEmpty()) {
            return List.of();
        }
        // By name: files of different flushes hold different columns (the table grew in between).
        String list = local.stream().map(p -> "'" + p + "'").collect(Collectors.joining(", ", "read_parquet([",
                "], union_by_name = true)"));
        // Through the driver itself: DriverManager hides a driver registered by another class loader (Quarkus tests).
        try (Connection c = new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", new java.util.Properties());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql.replace("{files}", list))) {
            List<List<Object>> out = new ArrayList<>();
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(rs.getObject(i));
                }
                out.add(row);
            }
            return out;
        }
    }

    private Path download(Path dir, String uri) throws IOException {
        String rest = uri.substring("s3://".length());
        int slash = rest.indexOf('/');
        String key = rest.substring(slash + 1);
        Path p = dir.resolve(key.replace('/', '_'));
        Files.write(p, s3.client().getObjectAsBytes(GetObjectRequest.builder().bucket(rest.substring(0, slash))
                .key(key).build()).asByteArray());
        return p;
    }

    @Override
    public void close() {
        server.close();
    }
}
