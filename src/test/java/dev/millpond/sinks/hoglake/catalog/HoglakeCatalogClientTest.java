package dev.millpond.sinks.hoglake.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.millpond.observability.ErrorType;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.AddColumn;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnDef;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.ColumnStats;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CommitRequest;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CommitResult;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.FileRegistration;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.PartitionField;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.PromoteColumn;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.SetPartitionSpec;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.SetSortOrder;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.SortField;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableAppend;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TypeParams;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.hoglake.HoglakeServer;
import io.quarkus.test.junit.QuarkusTest;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The catalog client against the contract-faithful test server, over real HTTP; a small scripted server covers the
 * answers a faithful server never gives (malformed body, redirect, a proxy's 502, 429 with a fractional Retry-After).
 * A {@code @QuarkusTest} because the Quarkus REST client needs a running application.
 */
@ServiceBacked
@QuarkusTest
class HoglakeCatalogClientTest {

    private static HoglakeServer server;
    private static HoglakeCatalogClient client;
    private String cat;

    @BeforeAll
    static void start() {
        server = HoglakeServer.start();
        client = new HoglakeCatalogClient(server.url() + "/", Duration.ofSeconds(20));
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @BeforeEach
    void freshCatalog() {
        cat = "c" + UUID.randomUUID().toString().substring(0, 8);
    }

    private TableInfo bootstrap() {
        assertThat(client.createCatalog(cat, "s3://bucket/" + cat + "/").ok()).isTrue();
        assertThat(client.createNamespace(cat, "ns").ok()).isTrue();
        return client.createTable(cat, "ns", "t", List.of(ColumnDef.scalar("id", "long", false),
                ColumnDef.scalar("team_id", "int", true), ColumnDef.scalar("score", "float", true),
                ColumnDef.scalar("_inserted_at", "timestamptz", true))).value();
    }

    private FileRegistration file(String name, long rows, List<String> partitionValues) {
        return new FileRegistration("s3://bucket/" + cat + "/data/ns/t/k/" + name + ".parquet", rows, 1000, 100,
                List.of(new ColumnStats(1, rows, 0, new byte[8], new byte[] {1, 0, 0, 0, 0, 0, 0, 0})),
                partitionValues);
    }

    private CommitRequest commit(String key, String expectedUuid, FileRegistration... files) {
        return new CommitRequest(key, null, List.of(new TableAppend("ns", "t", expectedUuid, List.of(files))),
                "millpond/test/0", null);
    }

    @Test
    void catalogLifecycleAndItsFailures() {
        CatalogFailure missing = client.catalog(cat).failure();
        assertThat(missing.isNotFound()).isTrue();
        assertThat(missing.retryable()).isTrue();
        assertThat(missing.status()).hasValue(404);

        assertThat(client.createCatalog(cat, "s3://bucket/" + cat).value().headSnapshotId()).isZero();
        CatalogFailure again = client.createCatalog(cat, "s3://bucket/" + cat).failure();
        assertThat(again.isAlreadyExists()).isTrue();
        assertThat(again.retryable()).isFalse();

        CatalogFailure badPath = client.createCatalog(cat + "x", "s3://bucket/" + cat + "/../x").failure();
        assertThat(badPath.status()).hasValue(422);
        assertThat(badPath.retryable()).isFalse();
        assertThat(client.catalog(cat).value().dataPath()).isEqualTo("s3://bucket/" + cat);
    }

    @Test
    void namespacesAndTablesWithFieldIds() {
        TableInfo t = bootstrap();
        assertThat(client.namespaces(cat).value()).extracting(HoglakeWire.NamespaceInfo::name).containsExactly("ns");
        assertThat(client.createNamespace(cat, "ns").failure().isAlreadyExists()).isTrue();
        assertThat(t.tableUuid()).isEqualTo(server.tableUuid(cat, "ns", "t").toString());
        assertThat(t.columns()).extracting(HoglakeWire.ColumnInfo::fieldId).containsExactly(1L, 2L, 3L, 4L);
        assertThat(t.partitionSpec()).isNull();
        TableInfo nested = client.createTable(cat, "ns", "nested", List.of(
                new ColumnDef("amount", "decimal", new TypeParams(10, 2), true, null),
                new ColumnDef("tags", "list", null, true, List.of(ColumnDef.scalar("element", "string", true))))).value();
        assertThat(nested.columns().get(0).typeParams()).isEqualTo(new TypeParams(10, 2));
        assertThat(nested.columns().get(1).children().get(0).fieldId()).isEqualTo(3);
        assertThat(client.table(cat, "ns", "nested").value().columns()).hasSize(2);
        assertThat(client.table(cat, "ns", "nope").failure().isNotFound()).isTrue();
        // Only documented fields, and no nulls: the server would 400 an unknown field, and absent means absent.
        assertThat(server.requests()).filteredOn(r -> r.method().equals("POST"))
                .allSatisfy(r -> assertThat(r.body()).doesNotContain(":null"));
        assertThat(server.requests()).filteredOn(r -> r.path().endsWith("/tables/nope"))
                .allSatisfy(r -> assertThat(r.query()).isEqualTo("totals=false"));
        CatalogFailure refusedType = client.createTable(cat, "ns", "bad",
                List.of(ColumnDef.scalar("x", "interval", true))).failure();
        assertThat(refusedType.status()).hasValue(422);
        assertThat(refusedType.retryable()).isFalse();
    }

    @Test
    void alterAddsPromotesAndDeclaresSpecs() {
        bootstrap();
        TableInfo altered = client.alter(cat, "ns", "t", List.of(
                new AddColumn(ColumnDef.scalar("event", "string", true), null),
                new PromoteColumn("team_id", "long"),
                new PromoteColumn("score", "double"),
                new SetPartitionSpec(List.of(new PartitionField(2, "identity", null),
                        new PartitionField(4, "month", null), new PartitionField(1, "bucket", 16))),
                new SetSortOrder(List.of(new SortField(2, "asc", "nulls_last"))))).value();
        assertThat(altered.columns()).extracting(HoglakeWire.ColumnInfo::type)
                .containsExactly("long", "long", "double", "timestamptz", "string");
        assertThat(altered.columns().get(4).fieldId()).isEqualTo(5);
        assertThat(altered.partitionSpec().specId()).isEqualTo(1);
        assertThat(altered.partitionSpec().fields()).containsExactly(new PartitionField(2, "identity", null),
                new PartitionField(4, "month", null), new PartitionField(1, "bucket", 16));
        assertThat(altered.sortSpec().fields()).containsExactly(new SortField(2, "asc", "nulls_last"));

        CatalogFailure exists = client.alter(cat, "ns", "t",
                List.of(new AddColumn(ColumnDef.scalar("event", "string", true), null))).failure();
        assertThat(exists.isColumnAlreadyExists()).isTrue();
        assertThat(exists.retryable()).isFalse();
        CatalogFailure illegal = client.alter(cat, "ns", "t", List.of(new PromoteColumn("event", "long"))).failure();
        assertThat(illegal.status()).hasValue(422);
        assertThat(illegal.retryable()).isFalse();
    }

    @Test
    void preparedCommitReplaysAndRecognizesAReusedKey() {
        TableInfo t = bootstrap();
        String key = UUID.randomUUID().toString();
        CommitRequest request = commit(key, t.tableUuid(), file("a", 3, null), file("b", 2, null));
        CommitResult first = client.commitPrepared(cat, request).value();
        CommitResult replay = client.commitPrepared(cat, request).value();
        assertThat(replay).isEqualTo(first);
        assertThat(server.files(cat, "ns", "t")).hasSize(2);
        assertThat(server.files(cat, "ns", "t").get(0).get("column_stats").get(0).get("upper_bound").asText())
                .isEqualTo("AQAAAAAAAAA=");

        CatalogFailure reused = client.commitPrepared(cat, commit(key, t.tableUuid(), file("c", 1, null))).failure();
        assertThat(reused.isIdempotencyKeyReused()).isTrue();
        assertThat(reused.retryable()).isFalse();
        assertThat(reused.errorType()).isEqualTo(ErrorType.WRITE_RETRY);
    }

    @Test
    void aLostResponseIsARetryableTransportFailureAndTheResendIsAnsweredFromTheReceipt() {
        TableInfo t = bootstrap();
        CommitRequest request = commit(UUID.randomUUID().toString(), t.tableUuid(), file("a", 3, null));
        server.loseNextCommitResponses(1);
        CatalogFailure lost = client.commitPrepared(cat, request).failure();
        assertThat(lost.status()).isEmpty();
        assertThat(lost.retryable()).isTrue();
        long head = server.headSnapshot(cat);
        assertThat(client.commitPrepared(cat, request).value().snapshotId()).isEqualTo(head);
        assertThat(server.files(cat, "ns", "t")).hasSize(1);
    }

    @Test
    void queueTimeoutCarriesRetryAfterAsAFloor() {
        TableInfo t = bootstrap();
        server.answerNextCommitsWithQueueTimeout(1);
        CommitRequest request = commit(UUID.randomUUID().toString(), t.tableUuid(), file("a", 3, null));
        CatalogFailure busy = client.commitPrepared(cat, request).failure();
        assertThat(busy.status()).hasValue(503);
        assertThat(busy.retryable()).isTrue();
        assertThat(busy.retryAfter()).hasValue(Duration.ofSeconds(1));
        assertThat(client.commitPrepared(cat, request).ok()).isTrue();
    }

    @Test
    void aRecreatedTableIsARetryableConflict() {
        TableInfo t = bootstrap();
        server.dropTable(cat, "ns", "t");
        client.createTable(cat, "ns", "t", List.of(ColumnDef.scalar("id", "long", false)));
        CatalogFailure recreated = client.commitPrepared(cat,
                commit(UUID.randomUUID().toString(), t.tableUuid(), file("a", 1, null))).failure();
        assertThat(recreated.isTableRecreated()).isTrue();
        assertThat(recreated.retryable()).isTrue();
        assertThat(recreated.errorType()).isEqualTo(ErrorType.HOGLAKE_COMMIT_CONTENTION);
    }

    @Test
    void partitionValuesTravelWithNullsAndArityIsChecked() {
        TableInfo t = bootstrap();
        client.alter(cat, "ns", "t", List.of(new SetPartitionSpec(List.of(new PartitionField(2, "identity", null),
                new PartitionField(4, "month", null)))));
        CommitRequest ok = commit(UUID.randomUUID().toString(), t.tableUuid(),
                file("a", 1, Arrays.asList("2", "680")), file("b", 1, Arrays.asList(null, "680")));
        assertThat(client.commitPrepared(cat, ok).ok()).isTrue();
        assertThat(server.files(cat, "ns", "t").get(1).get("partition_values").get(0).isNull()).isTrue();
        CatalogFailure arity = client.commitPrepared(cat,
                commit(UUID.randomUUID().toString(), t.tableUuid(), file("c", 1, List.of("2")))).failure();
        assertThat(arity.status()).hasValue(422);
        assertThat(arity.retryable()).isFalse();
    }

    @Test
    void transportFailureWithoutAServerIsRetryable() throws IOException {
        HttpServer closed = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1);
        int port = closed.getAddress().getPort();
        closed.stop(0);
        try (HoglakeCatalogClient nowhere = new HoglakeCatalogClient("http://127.0.0.1:" + port, Duration.ofSeconds(5))) {
            CatalogFailure f = nowhere.catalog("c").failure();
            assertThat(f.status()).isEmpty();
            assertThat(f.retryable()).isTrue();
        }
    }

    /** Answers every request with the next scripted status, headers and body. */
    private static HttpServer scripted(List<String[]> answers) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
        List<String[]> queue = new ArrayList<>(answers);
        s.createContext("/", ex -> {
            String[] a;
            synchronized (queue) {
                a = queue.remove(0);
            }
            for (int i = 2; i < a.length; i += 2) {
                ex.getResponseHeaders().set(a[i], a[i + 1]);
            }
            byte[] body = a[1].getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(Integer.parseInt(a[0]), body.length == 0 ? -1 : body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        s.start();
        return s;
    }

    @Test
    void answersOutsideTheContractAreClassified() throws IOException {
        HttpServer s = scripted(List.of(
                new String[] {"200", "this is not json", "Content-Type", "application/json"},
                new String[] {"302", "", "Location", "http://elsewhere/"},
                new String[] {"502", "<html>bad gateway</html>", "Content-Type", "text/html"},
                new String[] {"429", "{\"error\":\"slow_down\"}", "Content-Type", "application/json", "Retry-After", "2.5"},
                new String[] {"503", "{\"error\":\"commit_queue_timeout\"}", "Content-Type", "application/json",
                        "Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT"},
                new String[] {"410", "{\"error\":\"expired\",\"detail\":\"below the floor\"}", "Content-Type", "application/json"},
                new String[] {"408", "", "Content-Type", "application/json"}));
        try (HoglakeCatalogClient c = new HoglakeCatalogClient("http://127.0.0.1:" + s.getAddress().getPort(),
                Duration.ofSeconds(5))) {
            CatalogFailure malformed = c.catalog("x").failure();
            assertThat(malformed.retryable()).isFalse();
            assertThat(malformed.detail()).startsWith("malformed response");
            CatalogFailure redirect = c.catalog("x").failure();
            assertThat(redirect.status()).hasValue(302);
            assertThat(redirect.retryable()).isFalse();
            CatalogFailure gateway = c.catalog("x").failure();
            assertThat(gateway.status()).hasValue(502);
            assertThat(gateway.error()).isEmpty();
            assertThat(gateway.retryable()).isTrue();
            CatalogFailure throttled = c.catalog("x").failure();
            assertThat(throttled.retryable()).isTrue();
            assertThat(throttled.retryAfter()).hasValue(Duration.ofMillis(2500));
            CatalogFailure dated = c.catalog("x").failure();
            assertThat(dated.retryable()).isTrue();
            assertThat(dated.retryAfter()).isEmpty();
            CatalogFailure expired = c.catalog("x").failure();
            assertThat(expired.error()).hasValue("expired");
            assertThat(expired.retryable()).isFalse();
            assertThat(c.catalog("x").failure().retryable()).isTrue();
        } finally {
            s.stop(0);
        }
    }
}
