package dev.millpond.sinks.hoglake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.millpond.config.HoglakeConfig;
import dev.millpond.config.HoglakePartitionField;
import dev.millpond.config.HoglakeS3;
import dev.millpond.config.HoglakeTransform;
import dev.millpond.config.Secret;
import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.RejectedRecord;
import dev.millpond.sinks.hoglake.schema.RejectsTable;
import dev.millpond.sinks.WriteFailure;
import dev.millpond.sinks.hoglake.catalog.HoglakeCatalogClient;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnDef;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableInfo;
import dev.millpond.sinks.hoglake.schema.HoglakeLayoutException;
import dev.millpond.sinks.hoglake.schema.TableLayout;
import dev.millpond.testsupport.S3Server;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import dev.millpond.testsupport.hoglake.HoglakeServer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.duckdb.DuckDBDriver;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.util.BucketUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;

/**
 * The hoglake sink against the contract-faithful test server (real HTTP) and a real S3 server: bootstrap, layout,
 * evolution, partition fan-out, the held idempotent commit and its receipts, the incarnation guard, orphan accounting
 * and the startup refusals; the uploaded parquet is read back with DuckDB. A {@code @QuarkusTest} because the
 * Quarkus REST client needs a running application.
 */
@ServiceBacked
@QuarkusTest
class HoglakeSinkTest {

    private static final String NS = "analytics";
    private static final String TABLE = "events";
    private static final List<String> NAMES = List.of("iceberg", "alpha", "zed");

    private static HoglakeServer server;
    private static S3Server s3;
    private static String bucket;
    private static HoglakeCatalogClient catalogClient;

    private String cat;
    private SimpleMeterRegistry registry;
    private MillpondMetrics metrics;
    private BufferAllocator allocator;
    private HoglakeBatches batches;
    private final List<HoglakeSink> opened = new ArrayList<>();

    @BeforeAll
    static void start() {
        server = HoglakeServer.start();
        s3 = Services.s3();
        bucket = Services.uniqueName("hoglake");
        s3.createBucket(bucket);
        catalogClient = new HoglakeCatalogClient(server.url(), Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() {
        catalogClient.close();
        server.close();
    }

    @BeforeEach
    void fresh() {
        cat = Services.uniqueName("c");
        registry = new SimpleMeterRegistry();
        metrics = new MillpondMetrics(registry, "t-events", "");
        allocator = new RootAllocator();
        batches = new HoglakeBatches(allocator);
    }

    @AfterEach
    void release() {
        opened.forEach(HoglakeSink::close);
        opened.clear();
        batches.close();
        allocator.close();
    }

    // ---- fixtures ----

    private HoglakeS3 s3Settings(String accessKey, String secretKey) {
        return new HoglakeS3(Optional.of(new HoglakeS3.StaticKeys(accessKey, Secret.of(secretKey))),
                Optional.of(s3.endpointUrl().toString()), Optional.of(s3.region()));
    }

    private HoglakeConfig config(List<HoglakePartitionField> partitionBy) {
        return new HoglakeConfig(server.url(), cat, NS, TABLE, Optional.of("s3://" + bucket + "/" + cat),
                s3Settings(s3.accessKeyId(), s3.secretAccessKey()), partitionBy, 8, 20);
    }

    private HoglakeSink open(List<HoglakePartitionField> partitionBy, List<String> sortBy) {
        HoglakeSink sink = HoglakeSink.open(config(partitionBy), sortBy, metrics, allocator);
        opened.add(sink);
        return sink;
    }

    private double counter(String name, String label, String value) {
        Counter c = label == null ? registry.find(name).counter() : registry.find(name).tag(label, value).counter();
        return c == null ? 0 : c.count();
    }

    private double orphaned() {
        return counter("millpond.hoglake.orphaned.files", null, null);
    }

    private double replays(String outcome) {
        return counter("millpond.hoglake.commit.replays", "outcome", outcome);
    }

    private List<JsonNode> files() {
        return server.files(cat, NS, TABLE);
    }

    private long registeredRows() {
        return files().stream().mapToLong(f -> f.get("record_count").asLong()).sum();
    }

    private TableInfo table() {
        return catalogClient.table(cat, NS, TABLE).value();
    }

    private List<HoglakeServer.Recorded> requests(String method, String pathPart) {
        return server.requests().stream()
                .filter(r -> r.method().equals(method) && r.path().contains("/catalogs/" + cat + "/")
                        && r.path().endsWith(pathPart))
                .toList();
    }

    private static HoglakePartitionField field(String column, HoglakeTransform t) {
        return new HoglakePartitionField(column, t, OptionalInt.empty());
    }

    private Path download(Path dir, String uri) throws Exception {
        ObjectUri o = ObjectUri.parse(uri);
        Path p = dir.resolve(o.key().replace('/', '_'));
        Files.write(p, s3.client().getObjectAsBytes(GetObjectRequest.builder().bucket(o.bucket()).key(o.key())
                .build()).asByteArray());
        return p;
    }

    private static List<Map<String, Object>> query(String sql) throws Exception {
        try (Connection c = new DuckDBDriver().connect("jdbc:duckdb:", new Properties());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            List<Map<String, Object>> rows = new ArrayList<>();
            while (rs.next()) {
                Map<String, Object> row = new HashMap<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.put(rs.getMetaData().getColumnName(i), rs.getObject(i));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    private FlushBatch events(long seed, int rows, long firstOffset) {
        VectorSchemaRoot root = batches.events(new Random(seed), rows, firstOffset, 3, NAMES).root();
        return HoglakeBatches.flush("t", firstOffset, root);
    }

    // ---- bootstrap, layout, evolution ----

    @Test
    void theFirstWriteBootstrapsNamespaceTableSpecAndSortOrderAndDriftAddsColumnsInOneAlter(@TempDir Path dir)
            throws Exception {
        HoglakeSink sink = open(List.of(HoglakePartitionField.identity("team_id"),
                field("_inserted_at", HoglakeTransform.MONTH)), List.of("team_id", "ts"));
        FlushBatch first = events(1, 200, 0);
        assertThat(sink.write(first, 1)).isEqualTo(200);

        assertThat(requests("POST", "/namespaces")).hasSize(1);
        assertThat(requests("POST", "/tables")).hasSize(1);
        List<HoglakeServer.Recorded> alters = requests("POST", "/alter");
        assertThat(alters).hasSize(1);
        assertThat(alters.get(0).body()).contains("set_partition_spec").contains("set_sort_order");

        TableInfo t = table();
        Map<String, String> types = t.columns().stream().collect(Collectors.toMap(ColumnInfo::name,
                ColumnInfo::type));
        assertThat(types).containsExactlyInAnyOrderEntriesOf(Map.of("id", "long", "team_id", "long",
                "name", "string", "score", "double", "flag", "boolean", "ts", "timestamptz", "uuid", "uuid",
                "_inserted_at", "timestamptz"));
        TableLayout layout = TableLayout.of(t);
        assertThat(layout.partitionGrammar()).isEqualTo("identity(team_id), month(_inserted_at)");
        assertThat(layout.sortBy()).containsExactly("team_id", "ts");

        // Fan-out on team_id (1..3 and null) under one month: one file per tuple, all in one commit.
        List<JsonNode> registered = files();
        Set<Long> snapshots = registered.stream().map(f -> f.get("snapshot_id").asLong()).collect(Collectors.toSet());
        assertThat(snapshots).hasSize(1);
        assertThat(registered).hasSize(4);
        assertThat(counter("millpond.hoglake.files.written", null, null)).isEqualTo(4);
        assertThat(registeredRows()).isEqualTo(200);

        // Read back with DuckDB: every row once, field ids from the table, one _inserted_at for the whole flush.
        List<String> local = new ArrayList<>();
        for (JsonNode f : registered) {
            local.add(download(dir, f.get("path").asText()).toString());
        }
        String list = local.stream().map(p -> "'" + p + "'").collect(Collectors.joining(", ", "[", "]"));
        Map<String, Object> agg = query("SELECT count(*) AS n, count(DISTINCT id) AS ids,"
                + " count(DISTINCT _inserted_at) AS stamps FROM read_parquet(" + list + ")").get(0);
        assertThat(((Number) agg.get("n")).longValue()).isEqualTo(200);
        assertThat(((Number) agg.get("ids")).longValue()).isEqualTo(200);
        assertThat(((Number) agg.get("stamps")).longValue()).isEqualTo(1);
        Map<String, Long> ids = t.columns().stream().collect(Collectors.toMap(ColumnInfo::name, ColumnInfo::fieldId));
        for (Map<String, Object> row : query("SELECT name, field_id FROM parquet_schema('" + local.get(0) + "')"
                + " WHERE field_id IS NOT NULL")) {
            assertThat(((Number) row.get("field_id")).longValue()).as((String) row.get("name"))
                    .isEqualTo(ids.get((String) row.get("name")));
        }
        assertThat(query("SELECT name FROM parquet_schema('" + local.get(0) + "') WHERE field_id IS NOT NULL"))
                .hasSize(ids.size());

        // Drift: two new columns arrive in one alter.
        VectorSchemaRoot drift = batches.events(new Random(2), 50, 200, 3, NAMES)
                .strings("country", i -> i % 2 == 0 ? "NL" : "US")
                .doubles("revenue", i -> i * 1.5).root();
        assertThat(sink.write(HoglakeBatches.flush("t", 200, drift), 1)).isEqualTo(50);
        List<HoglakeServer.Recorded> adds = requests("POST", "/alter").stream()
                .filter(r -> r.body().contains("add_column")).toList();
        assertThat(adds).hasSize(1);
        assertThat(adds.get(0).body()).contains("\"country\"").contains("\"revenue\"");
        assertThat(counter("millpond.schema.columns.added", null, null)).isEqualTo(2);
        assertThat(TableLayout.column(table(), "revenue").orElseThrow().type()).isEqualTo("double");
        assertThat(registeredRows()).isEqualTo(250);

        // A third flush with the same columns needs no DDL, and the layout reconciles as matching.
        int before = requests("POST", "/alter").size();
        assertThat(sink.write(events(3, 30, 250), 1)).isEqualTo(30);
        assertThat(requests("POST", "/alter")).hasSize(before);
        assertThat(orphaned()).isZero();
    }

    @Test
    void aLiveIntAndFloatArePromotedToLongAndDouble() {
        assertThat(catalogClient.createCatalog(cat, "s3://" + bucket + "/" + cat).ok()).isTrue();
        assertThat(catalogClient.createNamespace(cat, NS).ok()).isTrue();
        assertThat(catalogClient.createTable(cat, NS, TABLE, List.of(ColumnDef.scalar("n", "int", true),
                ColumnDef.scalar("r", "float", true))).ok()).as("created elsewhere, without _inserted_at").isTrue();
        HoglakeSink sink = open(List.of(), List.of());
        VectorSchemaRoot root = batches.batch(3).longs("n", i -> 1L << 40).doubles("r", i -> 0.1 * i).root();
        assertThat(sink.write(HoglakeBatches.flush("t", 0, root), 1)).isEqualTo(3);
        Map<String, String> types = table().columns().stream().collect(Collectors.toMap(ColumnInfo::name,
                ColumnInfo::type));
        assertThat(types).containsEntry("n", "long").containsEntry("r", "double")
                .containsEntry("_inserted_at", "timestamptz");
        assertThat(counter("millpond.schema.columns.widened", null, null)).isEqualTo(2);
        assertThat(registeredRows()).isEqualTo(3);
    }

    @Test
    void aDivergingLiveLayoutIsFatalAndPrintedInTheConfigGrammar() {
        HoglakeSink first = open(List.of(HoglakePartitionField.identity("team_id")), List.of());
        first.write(events(1, 20, 0), 1);
        HoglakeSink other = open(List.of(HoglakePartitionField.bucket("team_id", 8)), List.of());
        Throwable refused = catchWrite(other, events(2, 20, 20), 1);
        assertThat(refused).isInstanceOf(HoglakeLayoutException.class)
                .hasMessageContaining("is partitioned by identity(team_id)")
                .hasMessageContaining("HOGLAKE_PARTITION_BY is bucket(team_id, 8)");
        assertThat(other.classify(refused).kind()).isEqualTo(WriteFailure.Kind.PERMANENT);
        HoglakeSink unpartitioned = open(List.of(), List.of());
        assertThat(catchWrite(unpartitioned, events(3, 20, 40), 1))
                .hasMessageContaining("HOGLAKE_PARTITION_BY is unset");
        assertThat(registeredRows()).isEqualTo(20);
    }

    @Test
    void aRefusedBatchOfNewColumnsFallsBackToOneAlterPerColumn() {
        // 9,998 column nodes: the server's 10,000-node limit refuses adding three at once, and the third alone.
        List<ColumnDef> wide = new ArrayList<>();
        for (int i = 0; i < 9_997; i++) {
            wide.add(ColumnDef.scalar("c" + i, "long", true));
        }
        wide.add(ColumnDef.scalar("_inserted_at", "timestamptz", true));
        assertThat(catalogClient.createCatalog(cat, "s3://" + bucket + "/" + cat).ok()).isTrue();
        assertThat(catalogClient.createNamespace(cat, NS).ok()).isTrue();
        assertThat(catalogClient.createTable(cat, NS, TABLE, wide).ok()).isTrue();
        HoglakeSink sink = open(List.of(), List.of());
        VectorSchemaRoot root = batches.batch(2).longs("c0", i -> (long) i).strings("a", i -> "x")
                .strings("b", i -> "y").strings("c", i -> "z").root();
        assertThat(sink.write(HoglakeBatches.flush("t", 0, root), 1)).isEqualTo(2);
        List<HoglakeServer.Recorded> adds = requests("POST", "/alter");
        assertThat(adds).hasSize(4);
        assertThat(adds.get(0).body()).contains("\"a\"").contains("\"b\"").contains("\"c\"");
        assertThat(counter("millpond.schema.columns.added", null, null)).isEqualTo(2);
        assertThat(counter("millpond.errors", "type", "schema")).isEqualTo(1);
        assertThat(TableLayout.column(table(), "b")).isPresent();
        assertThat(TableLayout.column(table(), "c")).isEmpty();
        assertThat(registeredRows()).isEqualTo(2);
    }

    @Test
    void podsBootstrappingTheSameTableAtOnceAllSucceed() throws Exception {
        int pods = 4;
        List<HoglakeSink> sinks = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
            sinks.add(open(List.of(HoglakePartitionField.identity("team_id")), List.of("id")));
        }
        List<FlushBatch> flushes = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
            flushes.add(events(50 + i, 25, 25L * i));
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(pods);
        try {
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<Long>> written = new ArrayList<>();
            for (int i = 0; i < pods; i++) {
                int p = i;
                written.add(pool.submit(() -> {
                    go.await();
                    return sinks.get(p).write(flushes.get(p), 1);
                }));
            }
            go.countDown();
            for (java.util.concurrent.Future<Long> w : written) {
                assertThat(w.get(60, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(25);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(registeredRows()).isEqualTo(25L * pods);
        assertThat(requests("POST", "/tables").size()).isBetween(1, pods);
        assertThat(TableLayout.of(table()).partitionGrammar()).isEqualTo("identity(team_id)");
        assertThat(TableLayout.of(table()).sortBy()).containsExactly("id");
    }

    @Test
    void aPartitionColumnTheTableCannotHaveIsPermanent() {
        HoglakeSink sink = open(List.of(HoglakePartitionField.identity("tenant")), List.of());
        Throwable refused = catchWrite(sink, events(60, 10, 0), 1);
        assertThat(refused).isInstanceOf(HoglakeLayoutException.class)
                .hasMessageContaining("HOGLAKE_PARTITION_BY names column 'tenant'");
        assertThat(sink.classify(refused).kind()).isEqualTo(WriteFailure.Kind.PERMANENT);
        assertThat(s3.listKeys(bucket, cat + "/data/")).isEmpty();
    }

    @Test
    void droppedPayloadKeysAreCountedAndNeverSent() {
        HoglakeSink sink = open(List.of(), List.of());
        String longName = "x".repeat(129);
        VectorSchemaRoot root = batches.batch(2).longs("id", i -> (long) i).strings("utm-source", i -> "a")
                .strings("_hog_secret", i -> "b").strings("_inserted_at", i -> "c").strings(longName, i -> "d")
                .root();
        assertThat(sink.write(HoglakeBatches.flush("t", 0, root), 1)).isEqualTo(2);
        assertThat(counter("millpond.records.skipped", "reason", "unsafe_field_name")).isEqualTo(2);
        assertThat(counter("millpond.records.skipped", "reason", "reserved_field_name")).isEqualTo(2);
        assertThat(table().columns()).extracting(ColumnInfo::name).containsExactlyInAnyOrder("id", "_inserted_at");
        assertThat(sink.becomesColumn("utm-source")).isFalse();
        assertThat(sink.becomesColumn("_hogx")).isFalse();
        assertThat(sink.becomesColumn("_inserted_at")).isFalse();
        assertThat(sink.becomesColumn(longName)).isFalse();
        assertThat(sink.becomesColumn("x".repeat(128))).isTrue();
        assertThat(sink.becomesColumn("year")).isTrue();
        assertThat(sink.recordedOffsets("t")).isEmpty();
    }

    @Test
    void theLiveColumnTypeWinsInBothUuidDirectionsAndCastsToText(@TempDir Path dir) throws Exception {
        assertThat(catalogClient.createCatalog(cat, "s3://" + bucket + "/" + cat).ok()).isTrue();
        assertThat(catalogClient.createNamespace(cat, NS).ok()).isTrue();
        assertThat(catalogClient.createTable(cat, NS, TABLE, List.of(ColumnDef.scalar("u", "uuid", true),
                ColumnDef.scalar("s", "string", true), ColumnDef.scalar("n", "string", true),
                ColumnDef.scalar("_inserted_at", "timestamptz", true))).ok()).isTrue();
        HoglakeSink sink = open(List.of(), List.of());
        UUID known = UUID.fromString("f79c3e09-677c-4bbd-a479-3f349cb785e7");
        String[] texts = {"F79C3E09677C4BBDA4793F349CB785E7", "not-a-uuid", null};
        VectorSchemaRoot root = batches.batch(3)
                .strings("u", i -> texts[i])
                .uuids("s", i -> i == 2 ? null : known)
                .longs("n", i -> (long) i * 7).root();
        assertThat(sink.write(HoglakeBatches.flush("t", 0, root), 1)).isEqualTo(3);

        Map<String, String> types = table().columns().stream().collect(Collectors.toMap(ColumnInfo::name,
                ColumnInfo::type));
        assertThat(types).containsEntry("u", "uuid").containsEntry("s", "string").containsEntry("n", "string");
        assertThat(counter("millpond.errors", "type", "schema")).as("one per rewritten column").isEqualTo(2);
        assertThat(counter("millpond.errors", "type", "column_coercion")).as("the one non-UUID").isEqualTo(1);
        Path local = download(dir, files().get(0).get("path").asText());
        List<Map<String, Object>> rows = query("SELECT u::VARCHAR AS u, s, n FROM read_parquet('" + local + "')"
                + " ORDER BY n::INT");
        assertThat(rows).extracting(r -> r.get("u")).containsExactly(known.toString(), null, null);
        assertThat(rows).extracting(r -> r.get("s")).containsExactly(known.toString(), known.toString(), null);
        assertThat(rows).extracting(r -> r.get("n")).containsExactly("0", "7", "14");
    }

    // ---- partition values ----

    @Test
    void partitionedFanOutCarriesIcebergValuesMatchingTheContractVectors(@TempDir Path dir) throws Exception {
        HoglakeSink sink = open(List.of(HoglakePartitionField.identity("team_id"),
                HoglakePartitionField.bucket("name", 16), field("_inserted_at", HoglakeTransform.DAY)), List.of());
        assertThat(sink.write(events(7, 300, 0), 1)).isEqualTo(300);
        List<JsonNode> registered = files();
        Set<List<String>> tuples = new HashSet<>();
        long rows = 0;
        for (JsonNode f : registered) {
            List<String> values = new ArrayList<>();
            f.get("partition_values").forEach(v -> values.add(v.isNull() ? null : v.asText()));
            assertThat(tuples.add(values)).as("one file per tuple").isTrue();
            Path local = download(dir, f.get("path").asText());
            for (Map<String, Object> row : query("SELECT team_id, name, epoch_us(_inserted_at) AS at FROM"
                    + " read_parquet('" + local + "')")) {
                rows++;
                Object team = row.get("team_id");
                assertThat(values.get(0)).isEqualTo(team == null ? null : team.toString());
                String name = (String) row.get("name");
                assertThat(values.get(1)).isEqualTo(name == null ? null
                        : Integer.toString((BucketUtil.hash(name) & Integer.MAX_VALUE) % 16));
                assertThat(values.get(2)).isEqualTo(Long.toString(
                        Math.floorDiv(((Number) row.get("at")).longValue(), 86_400_000_000L)));
                if ("iceberg".equals(name)) {
                    assertThat(values.get(1)).as("the contract's vector: \"iceberg\" → bucket[16] 9").isEqualTo("9");
                }
            }
        }
        assertThat(rows).isEqualTo(300);
        assertThat(registered.size()).isEqualTo(tuples.size()).isGreaterThan(4);
        assertThat(counter("millpond.hoglake.files.written", null, null)).isEqualTo(registered.size());
    }

    @Test
    void aLongBucketMatchesTheContractVector() {
        HoglakeSink sink = open(List.of(HoglakePartitionField.bucket("id", 16)), List.of());
        VectorSchemaRoot root = batches.batch(8).longs("id", i -> 30L + i).root();
        assertThat(sink.write(HoglakeBatches.flush("t", 0, root), 1)).isEqualTo(8);
        Map<String, Long> rowsByBucket = new HashMap<>();
        files().forEach(f -> rowsByBucket.merge(f.get("partition_values").get(0).asText(),
                f.get("record_count").asLong(), Long::sum));
        Map<String, Long> expected = new HashMap<>();
        for (long id = 30; id < 38; id++) {
            expected.merge(Integer.toString((BucketUtil.hash(id) & Integer.MAX_VALUE) % 16), 1L, Long::sum);
        }
        assertThat(rowsByBucket).isEqualTo(expected);
        assertThat(Integer.toString((BucketUtil.hash(34L) & Integer.MAX_VALUE) % 16)).isEqualTo("3");
        assertThat(rowsByBucket).containsKey("3");
    }

    // ---- publication: receipts, backpressure, incarnations, orphans ----

    @Test
    void aLostCommitResponseIsReplayedFromTheReceiptAndTheRowsLandOnce() {
        HoglakeSink sink = open(List.of(HoglakePartitionField.identity("team_id")), List.of());
        FlushBatch flush = events(11, 120, 0);
        server.loseNextCommitResponses(1);
        Throwable lost = catchWrite(sink, flush, 1);
        WriteFailure verdict = sink.classify(lost);
        assertThat(verdict.kind()).isNotEqualTo(WriteFailure.Kind.PERMANENT);
        long filesAfterFirst = files().size();
        assertThat(registeredRows()).as("the server applied the commit").isEqualTo(120);

        assertThat(sink.write(flush, 2)).isEqualTo(120);
        assertThat(registeredRows()).as("answered from the receipt, not published twice").isEqualTo(120);
        assertThat(files()).hasSize((int) filesAfterFirst);
        assertThat(replays("replayed")).isEqualTo(1);
        assertThat(replays("already_published")).isZero();
        assertThat(orphaned()).isZero();
        List<HoglakeServer.Recorded> commits = requests("POST", "/commit/prepared");
        assertThat(commits).hasSize(2);
        assertThat(commits.get(1).body()).as("the held payload, byte for byte").isEqualTo(commits.get(0).body());
    }

    @Test
    void aCommitQueueTimeoutCarriesItsRetryAfterAndTheResendPublishesOnce() {
        HoglakeSink sink = open(List.of(), List.of());
        FlushBatch flush = events(12, 40, 0);
        server.answerNextCommitsWithQueueTimeout(1);
        Throwable busy = catchWrite(sink, flush, 1);
        WriteFailure verdict = sink.classify(busy);
        assertThat(verdict.kind()).isNotEqualTo(WriteFailure.Kind.PERMANENT);
        assertThat(verdict.errorType()).isEqualTo(ErrorType.WRITE_RETRY);
        assertThat(verdict.retryAfter()).contains(Duration.ofSeconds(1));
        assertThat(registeredRows()).isZero();

        assertThat(sink.write(flush, 2)).isEqualTo(40);
        assertThat(registeredRows()).isEqualTo(40);
        assertThat(replays("replayed")).as("the first send was never applied: no replay").isZero();
        List<HoglakeServer.Recorded> commits = requests("POST", "/commit/prepared");
        assertThat(commits.get(1).body()).isEqualTo(commits.get(0).body());
        assertThat(orphaned()).isZero();
    }

    @Test
    void aKeyAlreadyPublishedByAnEarlierProcessIsDoneAndItsUploadOrphaned() {
        HoglakeSink before = open(List.of(HoglakePartitionField.identity("team_id")), List.of());
        assertThat(before.write(events(21, 150, 0), 1)).isEqualTo(150);
        int published = files().size();
        before.close();
        opened.remove(before);

        // The restarted process rebuilds the same flush (same offsets): fresh _inserted_at, fresh object names.
        HoglakeSink after = open(List.of(HoglakePartitionField.identity("team_id")), List.of());
        assertThat(after.write(events(21, 150, 0), 1)).isZero();
        assertThat(replays("already_published")).isEqualTo(1);
        assertThat(registeredRows()).isEqualTo(150);
        assertThat(files()).hasSize(published);
        assertThat(orphaned()).as("exactly the rebuilt flush's files").isEqualTo(published);
        // The orphans really are in object storage, beside nothing registered.
        Set<String> registeredKeys = files().stream().map(f -> ObjectUri.parse(f.get("path").asText()).key())
                .collect(Collectors.toSet());
        List<String> stored = s3.listKeys(bucket, cat + "/data/");
        assertThat(stored).hasSize(2 * published).containsAll(registeredKeys);
    }

    @Test
    void aTableRecreatedUnderTheSameNameIsRefusedThenReResolved() {
        HoglakeSink sink = open(List.of(HoglakePartitionField.identity("team_id")), List.of());
        assertThat(sink.write(events(31, 60, 0), 1)).isEqualTo(60);
        UUID oldUuid = server.tableUuid(cat, NS, TABLE);

        FlushBatch flush = events(32, 60, 60);
        server.answerNextCommitsWithQueueTimeout(1);
        catchWrite(sink, flush, 1);
        int heldFiles = (int) (s3.listKeys(bucket, cat + "/data/").size() - files().size());
        assertThat(heldFiles).isPositive();

        server.dropTable(cat, NS, TABLE);
        assertThat(catalogClient.createTable(cat, NS, TABLE, List.of(ColumnDef.scalar("id", "long", true),
                ColumnDef.scalar("team_id", "long", true), ColumnDef.scalar("_inserted_at", "timestamptz", true)))
                .ok()).isTrue();
        assertThat(server.tableUuid(cat, NS, TABLE)).isNotEqualTo(oldUuid);

        Throwable refused = catchWrite(sink, flush, 2);
        assertThat(refused).hasMessageContaining("table_recreated");
        WriteFailure verdict = sink.classify(refused);
        assertThat(verdict.kind()).isEqualTo(WriteFailure.Kind.RETRYABLE);
        assertThat(verdict.errorType()).isEqualTo(ErrorType.HOGLAKE_COMMIT_CONTENTION);
        assertThat(orphaned()).isEqualTo(heldFiles);
        assertThat(files()).isEmpty();

        assertThat(sink.write(flush, 3)).isEqualTo(60);
        assertThat(registeredRows()).isEqualTo(60);
        assertThat(TableLayout.of(table()).partitionGrammar()).isEqualTo("identity(team_id)");
        List<HoglakeServer.Recorded> commits = requests("POST", "/commit/prepared");
        assertThat(commits.get(commits.size() - 1).body()).contains(server.tableUuid(cat, NS, TABLE).toString())
                .doesNotContain(oldUuid.toString());
        assertThat(orphaned()).isEqualTo(heldFiles);
    }

    /**
     * The topic was deleted and created again: its first flush covers the same offsets as one of the deleted topic's,
     * whose receipt the server still holds. Named by the topic id too, it is published, not answered from that receipt.
     */
    @Test
    void aRecreatedTopicsFlushOverTheDeletedTopicsOffsetsIsPublished() {
        HoglakeSink sink = open(List.of(HoglakePartitionField.identity("team_id")), List.of());
        assertThat(sink.write(ofTopic(events(61, 80, 0), "old-topic-id"), 1)).isEqualTo(80);

        assertThat(sink.write(ofTopic(events(62, 80, 0), "new-topic-id"), 1)).isEqualTo(80);

        assertThat(replays("already_published")).isZero();
        assertThat(registeredRows()).isEqualTo(160);
    }

    private static FlushBatch ofTopic(FlushBatch batch, String topicId) {
        return new FlushBatch(batch.schema(), batch.batches(), batch.rows(), batch.ranges().stream()
                .map(r -> new OffsetRange(r.topic(), r.partition(), r.first(), r.last(), Optional.of(topicId)))
                .toList(), batch.rejects());
    }

    @Test
    void aPayloadStillHeldAtCloseIsCountedOrphaned() {
        HoglakeSink sink = open(List.of(HoglakePartitionField.identity("team_id")), List.of());
        server.answerNextCommitsWithQueueTimeout(1);
        catchWrite(sink, events(41, 80, 0), 1);
        int uploaded = s3.listKeys(bucket, cat + "/data/").size();
        assertThat(uploaded).isPositive();
        sink.close();
        opened.remove(sink);
        assertThat(orphaned()).isEqualTo(uploaded);
    }

    // ---- keys differing only in case ----

    private final List<VectorSchemaRoot> converted = new ArrayList<>();

    /** The records as the pump hands them over: converted by the real converter, covering offsets from {@code first}. */
    private FlushBatch json(long first, String... records) {
        List<byte[]> values = new ArrayList<>();
        for (String r : records) {
            values.add(r.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        VectorSchemaRoot root = new dev.millpond.convert.JsonToArrow(allocator).convert(values).root();
        converted.add(root);
        return HoglakeBatches.flush("t", first, root);
    }

    @AfterEach
    void releaseConverted() {
        converted.forEach(VectorSchemaRoot::close);
        converted.clear();
    }

    /**
     * The records of {@code DuckLakeSinkCaseDuplicatesTest}, with the same outcome: the first spelling is the
     * column, a later one is dropped for the flush and counted once, a later flush's other spelling lands in the live
     * column. Before, hoglake kept {@code a} and {@code A} as two columns, which Trino and Spark cannot tell apart.
     */
    @Test
    void keysDifferingOnlyInCaseAreOneColumnAsOnDuckLake(@TempDir Path dir) throws Exception {
        HoglakeSink sink = open(List.of(), List.of());
        assertThat(sink.write(json(0, "{\"id\":1,\"a\":1,\"A\":2}", "{\"id\":2,\"A\":3}"), 1)).isEqualTo(2);
        assertThat(counter("millpond.records.skipped", "reason", "duplicate_field_name")).isEqualTo(1);
        assertThat(sink.write(json(2, "{\"id\":3,\"A\":4}"), 1)).isEqualTo(1);
        assertThat(counter("millpond.records.skipped", "reason", "duplicate_field_name")).isEqualTo(1);

        assertThat(table().columns()).extracting(ColumnInfo::name).containsExactlyInAnyOrder("id", "a",
                "_inserted_at");
        List<String> local = new ArrayList<>();
        for (JsonNode f : files()) {
            local.add(download(dir, f.get("path").asText()).toString());
        }
        String list = local.stream().map(p -> "'" + p + "'").collect(Collectors.joining(", ", "[", "]"));
        assertThat(query("SELECT id, a FROM read_parquet(" + list + ", union_by_name = true) ORDER BY id").stream()
                .map(r -> r.get("id") + "|" + r.get("a")).toList()).containsExactly("1|1", "2|null", "3|4");
    }

    // ---- rejects ----

    private static RejectedRecord reject(int partition, long offset, String reason, byte[] value) {
        return RejectedRecord.of("t", partition, offset, 1_788_609_600_123L + offset, reason, "why " + offset, value,
                Integer.MAX_VALUE);
    }

    private static byte[] bytes(int length, long seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    private List<Map<String, Object>> rejectsRows(Path dir) throws Exception {
        List<String> local = new ArrayList<>();
        for (JsonNode f : server.files(cat, NS, RejectsTable.NAME)) {
            local.add(download(dir, f.get("path").asText()).toString());
        }
        String list = local.stream().map(p -> "'" + p + "'").collect(Collectors.joining(", ", "[", "]"));
        return query("SELECT table_name, topic, kafka_partition, kafka_offset, epoch_ms(kafka_timestamp) AS ts_ms,"
                + " reason, error, value, value_length, epoch_us(rejected_at) AS rejected_us, value_truncated"
                + " FROM read_parquet(" + list + ") ORDER BY kafka_offset");
    }

    /**
     * A flush's rejects are files of the {@code _millpond_rejects} table beside it, registered by the flush's own
     * commit (one snapshot for both tables), whole and with DuckLake's columns; a process rebuilding the flush after a
     * crash is declined by the key's receipt, so neither rows nor rejects are published twice.
     */
    @Test
    void rejectsLandWholeBesideTheRowsInTheFlushsOwnCommitAndOnceAcrossARestart(@TempDir Path dir)
            throws Exception {
        HoglakeSink sink = open(List.of(), List.of());
        assertThat(sink.keepsRejects()).isTrue();
        // Two values above the 8 MiB slice together: two rejects files, both in the one commit.
        List<RejectedRecord> rejects = List.of(reject(0, 100, "json_parse", bytes(5_000_000, 1)),
                reject(0, 101, "column_limit", bytes(5_000_000, 2)),
                reject(0, 102, "json_parse", "{\"id\": 7, broken".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        VectorSchemaRoot root = batches.events(new Random(61), 100, 0, 3, NAMES).root();
        FlushBatch flush = new FlushBatch(root.getSchema(), List.of(root), 100,
                List.of(new dev.millpond.sinks.OffsetRange("t", 0, 0, 102)), rejects);
        assertThat(sink.write(flush, 1)).isEqualTo(100);

        List<JsonNode> rejectFiles = server.files(cat, NS, RejectsTable.NAME);
        assertThat(rejectFiles).hasSize(2);
        Set<Long> snapshots = new HashSet<>();
        files().forEach(f -> snapshots.add(f.get("snapshot_id").asLong()));
        rejectFiles.forEach(f -> snapshots.add(f.get("snapshot_id").asLong()));
        assertThat(snapshots).as("rows and rejects in one commit").hasSize(1);
        assertThat(requests("POST", "/commit/prepared")).hasSize(1);

        TableInfo rejectsTable = catalogClient.table(cat, NS, RejectsTable.NAME).value();
        assertThat(rejectsTable.columns().stream().map(ColumnInfo::name).toList()).containsExactly("table_name",
                "topic", "kafka_partition", "kafka_offset", "kafka_timestamp", "reason", "error", "value",
                "value_length", "rejected_at", "value_truncated");
        List<Map<String, Object>> stored = rejectsRows(dir);
        assertThat(stored).hasSize(3);
        Map<String, Object> stamp = query("SELECT epoch_us(min(_inserted_at)) AS us FROM read_parquet('"
                + download(dir, files().get(0).get("path").asText()) + "')").get(0);
        for (int i = 0; i < 3; i++) {
            Map<String, Object> row = stored.get(i);
            RejectedRecord r = rejects.get(i);
            assertThat(row.get("table_name")).isEqualTo(TABLE);
            assertThat(row.get("topic")).isEqualTo("t");
            assertThat(((Number) row.get("kafka_partition")).intValue()).isZero();
            assertThat(((Number) row.get("kafka_offset")).longValue()).isEqualTo(r.offset());
            assertThat(((Number) row.get("ts_ms")).longValue()).isEqualTo(r.timestampMs());
            assertThat(row.get("reason")).isEqualTo(r.reason());
            assertThat(row.get("error")).isEqualTo(r.error());
            java.sql.Blob value = (java.sql.Blob) row.get("value");
            assertThat(value.getBytes(1, (int) value.length())).as("value of offset %d, whole", r.offset())
                    .isEqualTo(r.value());
            assertThat(((Number) row.get("value_length")).longValue()).isEqualTo(r.value().length);
            assertThat(row.get("rejected_us")).as("rejected_at is the flush's stamp").isEqualTo(stamp.get("us"));
            assertThat(row.get("value_truncated")).isEqualTo(false);
        }
        sink.close();
        opened.remove(sink);

        HoglakeSink restarted = open(List.of(), List.of());
        VectorSchemaRoot again = batches.events(new Random(61), 100, 0, 3, NAMES).root();
        assertThat(restarted.write(new FlushBatch(again.getSchema(), List.of(again), 100,
                List.of(new dev.millpond.sinks.OffsetRange("t", 0, 0, 102)), rejects), 1)).isZero();
        assertThat(replays("already_published")).isEqualTo(1);
        assertThat(rejectsRows(dir)).as("rejects once").hasSize(3);
        assertThat(registeredRows()).isEqualTo(100);
    }

    /**
     * A flush of rejects alone, before the data table exists: the rejects table is created and the rejects published;
     * the data table is left for the first row. With MILLPOND_REJECTS=false the sink keeps none.
     */
    @Test
    void aFlushOfRejectsAloneIsPublishedAndMillpondRejectsFalseKeepsNone(@TempDir Path dir) throws Exception {
        HoglakeSink sink = open(List.of(HoglakePartitionField.identity("team_id")), List.of());
        RejectedRecord r = reject(0, 0, "json_parse", "[1]".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        VectorSchemaRoot none = batches.batch(0).longs("id", i -> 0L).root();
        FlushBatch onlyRejects = new FlushBatch(none.getSchema(), List.of(), 0,
                List.of(new dev.millpond.sinks.OffsetRange("t", 0, 0, 0)), List.of(r));
        assertThat(sink.write(onlyRejects, 1)).isZero();
        assertThat(rejectsRows(dir)).hasSize(1);
        assertThat(catalogClient.table(cat, NS, TABLE).failure().isNotFound()).as("no data table yet").isTrue();
        assertThat(sink.write(onlyRejects, 1)).as("the same flush again: its receipt answers").isZero();
        assertThat(rejectsRows(dir)).hasSize(1);

        HoglakeSink without = HoglakeSink.open(config(List.of()), List.of(), false, metrics, allocator);
        opened.add(without);
        assertThat(without.keepsRejects()).isFalse();
        FlushBatch another = new FlushBatch(none.getSchema(), List.of(), 0,
                List.of(new dev.millpond.sinks.OffsetRange("t", 0, 1, 1)),
                List.of(reject(0, 1, "json_parse", "[2]".getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        assertThat(without.write(another, 1)).isZero();
        assertThat(rejectsRows(dir)).hasSize(1);
    }

    /** A sink opened against an existing table knows its columns before the first write: the width bound reads them. */
    @Test
    void liveColumnsAreTheExistingTablesFromStartup() {
        HoglakeSink first = open(List.of(), List.of());
        assertThat(first.liveColumns()).as("no table yet").isEmpty();
        assertThat(first.write(events(71, 20, 0), 1)).isEqualTo(20);
        HoglakeSink restarted = open(List.of(), List.of());
        assertThat(restarted.liveColumns()).containsExactlyInAnyOrderElementsOf(
                table().columns().stream().map(ColumnInfo::name).toList()).contains("id", "uuid", "_inserted_at");
    }

    // ---- startup refusals ----

    @Test
    void startupRefusesAMissingCatalogAnUnreachableControlPlaneAndAFailedProbe() {
        HoglakeConfig noDataPath = new HoglakeConfig(server.url(), cat, NS, TABLE, Optional.empty(),
                s3Settings(s3.accessKeyId(), s3.secretAccessKey()), List.of(), 8, 20);
        assertThatThrownBy(() -> HoglakeSink.open(noDataPath, List.of(), metrics, allocator))
                .isInstanceOf(HoglakeStartupException.class)
                .hasMessageContaining("'" + cat + "' does not exist")
                .hasMessageContaining("HOGLAKE_DATA_PATH");

        HoglakeConfig unreachable = new HoglakeConfig("http://127.0.0.1:9", cat, NS, TABLE, Optional.empty(),
                s3Settings(s3.accessKeyId(), s3.secretAccessKey()), List.of(), 8, 5);
        assertThatThrownBy(() -> HoglakeSink.open(unreachable, List.of(), metrics, allocator))
                .isInstanceOf(HoglakeStartupException.class)
                .hasMessageContaining("check HOGLAKE_URL");

        HoglakeConfig noBucket = new HoglakeConfig(server.url(), cat, NS, TABLE,
                Optional.of("s3://no-such-bucket-" + cat + "/x"), s3Settings(s3.accessKeyId(), s3.secretAccessKey()),
                List.of(), 8, 20);
        assertThatThrownBy(() -> HoglakeSink.open(noBucket, List.of(), metrics, allocator))
                .isInstanceOf(ObjectStoreProbeException.class)
                .hasMessageContaining("_millpond/probe")
                .hasMessageContaining("NoSuchBucket")
                .hasMessageContaining("check the bucket");

        String other = Services.uniqueName("c");
        HoglakeConfig badKeys = new HoglakeConfig(server.url(), other, NS, TABLE,
                Optional.of("s3://" + bucket + "/" + other), s3Settings("nobody", "wrong-secret"), List.of(), 8, 20);
        assertThatThrownBy(() -> HoglakeSink.open(badKeys, List.of(), metrics, allocator))
                .isInstanceOf(ObjectStoreProbeException.class)
                .hasMessageContaining("InvalidAccessKeyId")
                .hasMessageContaining("check the static keys HOGLAKE_S3_ACCESS_KEY / HOGLAKE_S3_SECRET_KEY")
                .hasMessageNotContaining("wrong-secret");
    }

    private static Throwable catchWrite(HoglakeSink sink, FlushBatch batch, int attempt) {
        try {
            sink.write(batch, attempt);
        } catch (Throwable t) {
            return t;
        }
        throw new AssertionError("the write was expected to fail");
    }
}
