package dev.millpond.testsupport.hoglake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.millpond.testsupport.ServiceBacked;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The test server against the wire contract's rules, one test per rule, over real HTTP. */
@ServiceBacked
class HoglakeServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static HoglakeServer server;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private String cat;

    record Reply(int status, JsonNode body, HttpResponse<String> raw) {
        String error() {
            return body.path("error").asText();
        }

        String detail() {
            return body.path("detail").asText();
        }
    }

    @BeforeAll
    static void start() {
        server = HoglakeServer.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** A fresh catalog per test, with namespace {@code ns} and table {@code t} (id long, name string, ts timestamptz). */
    @BeforeEach
    void catalog() throws Exception {
        cat = "c" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(post("/v1/catalogs", "{\"name\":\"" + cat + "\",\"data_path\":\"s3://bucket/" + cat + "/\"}")
                .status()).isEqualTo(201);
        assertThat(post(c("/namespaces"), "{\"name\":\"ns\"}").status()).isEqualTo(201);
        Reply t = post(c("/namespaces/ns/tables"), """
                {"name":"t","columns":[{"name":"id","type":"long","nullable":false},
                 {"name":"name","type":"string","nullable":true},{"name":"ts","type":"timestamptz","nullable":true}]}""");
        assertThat(t.status()).isEqualTo(201);
    }

    private String c(String suffix) {
        return "/v1/catalogs/" + cat + suffix;
    }

    static Reply call(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url() + path)).timeout(Duration.ofSeconds(30));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode n = r.body().isEmpty() ? JSON.nullNode() : JSON.readTree(r.body());
        return new Reply(r.statusCode(), n, r);
    }

    static Reply post(String path, String json) throws Exception {
        return call("POST", path, "application/json", json);
    }

    static Reply get(String path) throws Exception {
        return call("GET", path, null, null);
    }

    private String file(String name, long rows) {
        return "{\"path\":\"s3://bucket/" + cat + "/data/ns/t/" + name + ".parquet\",\"record_count\":" + rows
                + ",\"file_size_bytes\":1000,\"footer_size\":200,\"column_stats\":[]}";
    }

    private String commitBody(String key, String files, String extra) {
        return "{" + (key == null ? "" : "\"idempotency_key\":\"" + key + "\",") + extra
                + "\"appends\":[{\"namespace\":\"ns\",\"table\":\"t\",\"files\":[" + files + "]}]}";
    }

    private Reply commit(String key, String files) throws Exception {
        return post(c("/commit/prepared"), commitBody(key, files, ""));
    }

    // ---- 1. envelope and statuses ----

    @Test
    void errorEnvelopeIsErrorAndDetailOnly() throws Exception {
        Reply r = get("/v1/catalogs/nope");
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.body().properties()).extracting(java.util.Map.Entry::getKey).containsExactly("error", "detail");
        assertThat(r.error()).isEqualTo("not_found");
    }

    @Test
    void catalogStartsAtSnapshotZeroAndDdlAdvancesSchemaVersion() throws Exception {
        Reply fresh = post("/v1/catalogs", "{\"name\":\"fresh-" + cat + "\",\"data_path\":\"s3://fresh/" + cat + "\"}");
        assertThat(fresh.body().get("head_snapshot_id").asLong()).isZero();
        assertThat(fresh.body().get("schema_version").asLong()).isZero();
        // Namespace + table create: two DDL snapshots; a commit takes head + 1 without a schema change.
        assertThat(server.headSnapshot(cat)).isEqualTo(2);
        assertThat(server.schemaVersion(cat)).isEqualTo(2);
        Reply done = commit(UUID.randomUUID().toString(), file("a", 5));
        assertThat(done.status()).isEqualTo(200);
        assertThat(done.body().get("snapshot_id").asLong()).isEqualTo(3);
        assertThat(done.body().get("schema_version").asLong()).isEqualTo(2);
        assertThat(get(c("")).body().get("head_snapshot_id").asLong()).isEqualTo(3);
    }

    // ---- 2. 400 versus 422 ----

    @Test
    void unknownRequestFieldIsA400() throws Exception {
        assertThat(post(c("/namespaces"), "{\"name\":\"x\",\"properties\":{}}").error()).isEqualTo("bad_request");
        Reply r = commit(UUID.randomUUID().toString(), file("a", 1).replace("\"record_count\"", "\"extra\":1,\"record_count\""));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.detail()).contains("unknown field 'extra'");
        Reply stats = commit(UUID.randomUUID().toString(), file("a", 1).replace("\"column_stats\":[]",
                "\"column_stats\":[{\"field_id\":1,\"value_count\":1,\"null_count\":0,\"distinct_count\":1}]"));
        assertThat(stats.status()).isEqualTo(400);
    }

    @Test
    void syntaxErrorsAre400() throws Exception {
        assertThat(post(c("/namespaces"), "{}").status()).isEqualTo(400); // missing required
        assertThat(post(c("/namespaces"), "{\"name\":5}").status()).isEqualTo(400); // wrong type
        assertThat(post(c("/namespaces"), "null").status()).isEqualTo(400);
        assertThat(post(c("/namespaces"), "{\"name\":").status()).isEqualTo(400);
        assertThat(call("POST", c("/namespaces"), "text/plain", "{\"name\":\"x\"}").status()).isEqualTo(400);
        assertThat(post(c("/namespaces/ns/tables/t/alter"), "{\"ops\":[]}").status()).isEqualTo(400);
        assertThat(post(c("/namespaces/ns/tables/t/alter"), "{\"ops\":[{\"op\":\"explode\"}]}").status()).isEqualTo(400);
        assertThat(post(c("/namespaces/ns/tables/t/alter"), "{\"ops\":[{\"op\":\"drop_column\"}]}").status())
                .isEqualTo(400);
        assertThat(commit("not-a-uuid", file("a", 1)).status()).isEqualTo(400);
        Reply missing = commit(UUID.randomUUID().toString(), "{\"path\":\"s3://bucket/" + cat + "/x.parquet\",\"file_size_bytes\":9}");
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.detail()).contains("record_count");
    }

    @Test
    void semanticErrorsAre422() throws Exception {
        assertThat(post(c("/namespaces"), "{\"name\":\"1bad\"}").status()).isEqualTo(422);
        Reply hog = post(c("/namespaces/ns/tables"), "{\"name\":\"h\",\"columns\":[{\"name\":\"_hog_x\",\"type\":\"long\"}]}");
        assertThat(hog.status()).isEqualTo(422);
        Reply refused = post(c("/namespaces/ns/tables"), "{\"name\":\"h\",\"columns\":[{\"name\":\"x\",\"type\":\"int128\"}]}");
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.detail()).contains("int128").doesNotContain("unknown type");
        assertThat(post(c("/namespaces/ns/tables"), "{\"name\":\"h\",\"columns\":[]}").status()).isEqualTo(422);
        assertThat(post(c("/namespaces/ns/tables"),
                "{\"name\":\"h\",\"columns\":[{\"name\":\"l\",\"type\":\"list\",\"children\":[{\"name\":\"x\",\"type\":\"int\"}]}]}")
                .status()).isEqualTo(422);
        assertThat(commit(UUID.randomUUID().toString(), "").detail()).contains("has no files");
        assertThat(post(c("/commit/prepared"), "{\"idempotency_key\":\"" + UUID.randomUUID() + "\",\"appends\":[]}").detail())
                .isEqualTo("commit has no appends or deletes");
        Reply outside = commit(UUID.randomUUID().toString(), file("a", 1).replace("s3://bucket/" + cat, "s3://other"));
        assertThat(outside.status()).isEqualTo(422);
        Reply dots = commit(UUID.randomUUID().toString(), file("a", 1).replace("/data/", "/../"));
        assertThat(dots.status()).isEqualTo(422);
        Reply footer = commit(UUID.randomUUID().toString(), file("a", 1).replace("\"footer_size\":200", "\"footer_size\":993"));
        assertThat(footer.detail()).isEqualTo("invalid footer_size");
        Reply unknownTable = post(c("/commit/prepared"), commitBody(UUID.randomUUID().toString(), file("a", 1), "")
                .replace("\"table\":\"t\"", "\"table\":\"nope\""));
        assertThat(unknownTable.status()).isEqualTo(422);
        assertThat(unknownTable.detail()).isEqualTo("unknown table ns.nope");
        Reply noKey = post(c("/commit/prepared"), commitBody(null, file("a", 1), ""));
        assertThat(noKey.status()).isEqualTo(422);
        assertThat(noKey.detail()).isEqualTo("idempotency_key is required");
        Reply ahead = post(c("/commit/prepared"), commitBody(UUID.randomUUID().toString(), file("a", 1), "\"read_snapshot\":99,"));
        assertThat(ahead.status()).isEqualTo(422);
    }

    @Test
    void statsForUnknownContainerOrRepeatedFieldAre422() throws Exception {
        String stat = "{\"field_id\":%d,\"value_count\":1,\"null_count\":0}";
        for (String stats : List.of(stat.formatted(99), stat.formatted(1) + "," + stat.formatted(1))) {
            Reply r = commit(UUID.randomUUID().toString(), file("a", 1).replace("\"column_stats\":[]",
                    "\"column_stats\":[" + stats + "]"));
            assertThat(r.status()).isEqualTo(422);
        }
        assertThat(post(c("/namespaces/ns/tables/t/alter"), """
                {"ops":[{"op":"add_column","column":{"name":"s","type":"struct","children":[{"name":"a","type":"int"}]}}]}""")
                .status()).isEqualTo(200);
        Reply container = commit(UUID.randomUUID().toString(), file("a", 1).replace("\"column_stats\":[]",
                "\"column_stats\":[" + stat.formatted(4) + "]"));
        assertThat(container.status()).isEqualTo(422);
        assertThat(container.detail()).contains("struct");
    }

    @Test
    void partitionValuesMustMatchTheLiveSpecArity() throws Exception {
        String withValues = file("a", 1).replace("}", ",\"partition_values\":[\"1\"]}");
        assertThat(commit(UUID.randomUUID().toString(), withValues).status()).isEqualTo(422);
        assertThat(post(c("/namespaces/ns/tables/t/alter"),
                "{\"ops\":[{\"op\":\"set_partition_spec\",\"fields\":[{\"source_field_id\":1,\"transform\":\"identity\"},"
                        + "{\"source_field_id\":3,\"transform\":\"month\"}]}]}").status()).isEqualTo(200);
        assertThat(commit(UUID.randomUUID().toString(), withValues).status()).isEqualTo(422);
        assertThat(commit(UUID.randomUUID().toString(), file("b", 1)).status()).isEqualTo(422);
        Reply ok = commit(UUID.randomUUID().toString(), file("c", 1).replace("}", ",\"partition_values\":[\"2\",null]}"));
        assertThat(ok.status()).isEqualTo(200);
    }

    // ---- 3/4. idempotent replay ----

    @Test
    void replayReturnsTheOriginalResultAndWritesNothing() throws Exception {
        String key = UUID.randomUUID().toString();
        String stats = "\"column_stats\":[{\"field_id\":2,\"value_count\":1,\"null_count\":0},"
                + "{\"field_id\":1,\"value_count\":1,\"null_count\":0}]";
        String a = file("a", 3).replace("\"column_stats\":[]", stats);
        Reply first = commit(key, a + "," + file("b", 4));
        assertThat(first.status()).isEqualTo(200);
        long head = server.headSnapshot(cat);
        // Same request in another order of files and stats: canonically equal.
        String reorderedStats = "\"column_stats\":[{\"field_id\":1,\"value_count\":1,\"null_count\":0},"
                + "{\"field_id\":2,\"value_count\":1,\"null_count\":0}]";
        Reply replay = commit(key, file("b", 4) + "," + file("a", 3).replace("\"column_stats\":[]", reorderedStats));
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(server.headSnapshot(cat)).isEqualTo(head);
        assertThat(server.files(cat, "ns", "t")).hasSize(2);
    }

    @Test
    void replayIsAnsweredBeforeTableAndPathChecks() throws Exception {
        String key = UUID.randomUUID().toString();
        Reply first = commit(key, file("a", 3));
        server.dropTable(cat, "ns", "t");
        Reply replay = commit(key, file("a", 3));
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.body()).isEqualTo(first.body());
    }

    @Test
    void aKeyReusedWithADifferentRequestIsRefused() throws Exception {
        String key = UUID.randomUUID().toString();
        commit(key, file("a", 3));
        for (String other : List.of(commitBody(key, file("a", 4), ""), commitBody(key, file("a", 3), "\"author\":\"x\","))) {
            Reply r = post(c("/commit/prepared"), other);
            assertThat(r.status()).isEqualTo(422);
            assertThat(r.error()).isEqualTo("validation");
            assertThat(r.detail()).isEqualTo("idempotency_key reused with a different request");
        }
    }

    @Test
    void aRefusedRequestLeavesNoReceipt() throws Exception {
        String key = UUID.randomUUID().toString();
        String withValues = file("a", 1).replace("}", ",\"partition_values\":[\"1\"]}");
        assertThat(commit(key, withValues).status()).isEqualTo(422);
        assertThat(post(c("/namespaces/ns/tables/t/alter"),
                "{\"ops\":[{\"op\":\"set_partition_spec\",\"fields\":[{\"source_field_id\":1,\"transform\":\"identity\"}]}]}")
                .status()).isEqualTo(200);
        assertThat(commit(key, withValues).status()).isEqualTo(200);
    }

    @Test
    void aLostResponseIsAppliedAndTheResendReplays() throws Exception {
        String key = UUID.randomUUID().toString();
        server.loseNextCommitResponses(1);
        assertThatThrownBy(() -> commit(key, file("a", 3))).isInstanceOf(IOException.class);
        long head = server.headSnapshot(cat);
        Reply resend = commit(key, file("a", 3));
        assertThat(resend.status()).isEqualTo(200);
        assertThat(resend.body().get("snapshot_id").asLong()).isEqualTo(head);
        assertThat(server.headSnapshot(cat)).isEqualTo(head);
        assertThat(server.files(cat, "ns", "t")).hasSize(1);
    }

    // ---- 5. incarnation guard ----

    @Test
    void aRecreatedTableRefusesTheOldIncarnationAtomically() throws Exception {
        UUID old = server.tableUuid(cat, "ns", "t");
        java.util.function.Supplier<String> guarded = () -> commitBody(UUID.randomUUID().toString(), file("a", 1), "")
                .replace("\"table\":\"t\"", "\"table\":\"t\",\"expected_table_uuid\":\"" + old + "\"");
        assertThat(post(c("/commit/prepared"), guarded.get()).status()).isEqualTo(200);
        server.dropTable(cat, "ns", "t");
        Reply dropped = post(c("/commit/prepared"), guarded.get());
        assertThat(dropped.status()).isEqualTo(409);
        assertThat(dropped.error()).isEqualTo("table_dropped");
        post(c("/namespaces/ns/tables"), "{\"name\":\"t\",\"columns\":[{\"name\":\"id\",\"type\":\"long\"}]}");
        assertThat(server.tableUuid(cat, "ns", "t")).isNotEqualTo(old);
        long head = server.headSnapshot(cat);
        Reply r = post(c("/commit/prepared"), guarded.get());
        assertThat(r.status()).isEqualTo(409);
        assertThat(r.error()).isEqualTo("table_recreated");
        assertThat(r.detail()).contains("the table was recreated");
        assertThat(r.body().get("tables").get(0).asText()).isEqualTo("ns.t");
        assertThat(r.body().get("retry").asText()).isEqualTo("re-prepare");
        assertThat(server.headSnapshot(cat)).isEqualTo(head);
        assertThat(server.files(cat, "ns", "t")).isEmpty();
    }

    // ---- 6. concurrent DDL ----

    @Test
    void existingNamespaceOrTableIs409AlreadyExists() throws Exception {
        Reply ns = post(c("/namespaces"), "{\"name\":\"ns\"}");
        assertThat(ns.status()).isEqualTo(409);
        assertThat(ns.error()).isEqualTo("already_exists");
        Reply t = post(c("/namespaces/ns/tables"), "{\"name\":\"t\",\"columns\":[{\"name\":\"id\",\"type\":\"long\"}]}");
        assertThat(t.status()).isEqualTo(409);
        assertThat(t.error()).isEqualTo("already_exists");
    }

    @Test
    void concurrentAddColumnOfOneNameGivesOne200AndOne422() throws Exception {
        String add = "{\"ops\":[{\"op\":\"add_column\",\"column\":{\"name\":\"new_col\",\"type\":\"string\",\"nullable\":true}}]}";
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Reply>> replies = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                replies.add(pool.submit((Callable<Reply>) () -> post(c("/namespaces/ns/tables/t/alter"), add)));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Reply> f : replies) {
                Reply r = f.get();
                statuses.add(r.status());
                if (r.status() == 422) {
                    assertThat(r.detail()).isEqualTo("column 'new_col' already exists");
                }
            }
            assertThat(statuses).containsOnly(200, 422).containsOnlyOnce(200);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void ddlSinceTheReadSnapshotIs409WithTheTypedBody() throws Exception {
        long read = server.headSnapshot(cat);
        post(c("/namespaces/ns/tables/t/alter"), "{\"ops\":[{\"op\":\"add_column\",\"column\":{\"name\":\"x\",\"type\":\"int\"}}]}");
        Reply r = post(c("/commit/prepared"), commitBody(UUID.randomUUID().toString(), file("a", 1), "\"read_snapshot\":" + read + ","));
        assertThat(r.status()).isEqualTo(409);
        assertThat(r.error()).isEqualTo("ddl_since_read_snapshot");
        assertThat(r.body().get("read_snapshot").asLong()).isEqualTo(read);
        assertThat(r.body().get("retry").asText()).isEqualTo("re-prepare");
        // Appends never conflict with appends.
        long now = server.headSnapshot(cat);
        commit(UUID.randomUUID().toString(), file("b", 1));
        assertThat(post(c("/commit/prepared"), commitBody(UUID.randomUUID().toString(), file("c", 1), "\"read_snapshot\":" + now + ","))
                .status()).isEqualTo(200);
    }

    // ---- 503 on demand ----

    @Test
    void queueTimeoutIs503WithRetryAfterOne() throws Exception {
        server.answerNextCommitsWithQueueTimeout(1);
        String key = UUID.randomUUID().toString();
        Reply busy = commit(key, file("a", 1));
        assertThat(busy.status()).isEqualTo(503);
        assertThat(busy.error()).isEqualTo("commit_queue_timeout");
        assertThat(busy.raw().headers().firstValue("Retry-After")).hasValue("1");
        assertThat(commit(key, file("a", 1)).status()).isEqualTo(200);
    }

    // ---- 7. catalog state: ids, specs, stats sanitization ----

    @Test
    void fieldIdsAreDepthFirstFromOneAndSpecIdsCount() throws Exception {
        Reply t = post(c("/namespaces/ns/tables"), """
                {"name":"nested","columns":[{"name":"a","type":"long"},
                 {"name":"s","type":"struct","children":[{"name":"x","type":"int"},
                   {"name":"l","type":"list","children":[{"name":"element","type":"string"}]}]},
                 {"name":"m","type":"map","children":[{"name":"key","type":"string","nullable":false},{"name":"value","type":"double"}]}]}""");
        assertThat(t.status()).isEqualTo(201);
        JsonNode cols = t.body().get("columns");
        assertThat(cols.get(0).get("field_id").asLong()).isEqualTo(1);
        assertThat(cols.get(1).get("field_id").asLong()).isEqualTo(2);
        assertThat(cols.get(1).get("children").get(0).get("field_id").asLong()).isEqualTo(3);
        assertThat(cols.get(1).get("children").get(1).get("children").get(0).get("field_id").asLong()).isEqualTo(5);
        assertThat(cols.get(2).get("field_id").asLong()).isEqualTo(6);
        assertThat(cols.get(2).get("children").get(1).get("field_id").asLong()).isEqualTo(8);
        assertThat(cols.get(2).get("ordinal").asInt()).isEqualTo(2);
        Reply added = post(c("/namespaces/nested/alter".replace("nested/alter", "ns/tables/nested/alter")),
                "{\"ops\":[{\"op\":\"add_column\",\"column\":{\"name\":\"y\",\"type\":\"int\"},\"parent\":\"s\"},"
                        + "{\"op\":\"set_partition_spec\",\"fields\":[{\"source_field_id\":3,\"transform\":\"bucket\",\"transform_param\":4}]},"
                        + "{\"op\":\"set_partition_spec\",\"fields\":[{\"source_field_id\":1,\"transform\":\"identity\"}]},"
                        + "{\"op\":\"set_sort_order\",\"sort_fields\":[{\"source_field_id\":9,\"direction\":\"asc\",\"null_order\":\"nulls_last\"}]}]}");
        assertThat(added.status()).isEqualTo(200);
        JsonNode s = added.body().get("columns").get(1).get("children");
        assertThat(s.get(2).get("field_id").asLong()).isEqualTo(9);
        assertThat(s.get(2).get("ordinal").asInt()).isEqualTo(2);
        assertThat(added.body().get("partition_spec").get("spec_id").asInt()).isEqualTo(2);
        assertThat(added.body().get("sort_spec").get("sort_id").asInt()).isEqualTo(1);
        assertThat(added.body().get("sort_spec").get("fields").get(0).get("source_field_id").asLong()).isEqualTo(9);
        JsonNode read = get(c("/namespaces/ns/tables/nested?totals=false")).body();
        assertThat(read.has("record_count")).isFalse();
        assertThat(read.get("read_snapshot_id").asLong()).isEqualTo(server.headSnapshot(cat));
        assertThat(read.has("snapshot_id")).isFalse();
    }

    @Test
    void anAlterIsAtomic() throws Exception {
        Reply r = post(c("/namespaces/ns/tables/t/alter"),
                "{\"ops\":[{\"op\":\"add_column\",\"column\":{\"name\":\"x\",\"type\":\"int\"}},"
                        + "{\"op\":\"promote_column\",\"name\":\"name\",\"to\":\"long\"}]}");
        assertThat(r.status()).isEqualTo(422);
        assertThat(get(c("/namespaces/ns/tables/t")).body().get("columns")).hasSize(3);
    }

    @Test
    void promotionFollowsTheMatrixOnly() throws Exception {
        post(c("/namespaces/ns/tables/t/alter"), "{\"ops\":[{\"op\":\"add_column\",\"column\":{\"name\":\"i\",\"type\":\"int\"}},"
                + "{\"op\":\"add_column\",\"column\":{\"name\":\"f\",\"type\":\"float\"}}]}");
        assertThat(post(c("/namespaces/ns/tables/t/alter"), "{\"ops\":[{\"op\":\"promote_column\",\"name\":\"i\",\"to\":\"long\"},"
                + "{\"op\":\"promote_column\",\"name\":\"f\",\"to\":\"double\"}]}").status()).isEqualTo(200);
        for (String bad : List.of("{\"name\":\"id\",\"to\":\"int\"}", "{\"name\":\"name\",\"to\":\"uuid\"}", "{\"name\":\"i\",\"to\":\"uint64\"}")) {
            assertThat(post(c("/namespaces/ns/tables/t/alter"), "{\"ops\":[{\"op\":\"promote_column\"," + bad.substring(1) + "]}")
                    .status()).isEqualTo(422);
        }
    }

    @Test
    void partitionSpecRulesAre422() throws Exception {
        post(c("/namespaces/ns/tables/t/alter"), "{\"ops\":[{\"op\":\"add_column\",\"column\":{\"name\":\"f\",\"type\":\"float\"}}]}");
        for (String field : List.of(
                "{\"source_field_id\":4,\"transform\":\"bucket\",\"transform_param\":4}", // float is not bucketable
                "{\"source_field_id\":1,\"transform\":\"bucket\"}", // no param
                "{\"source_field_id\":1,\"transform\":\"bucket\",\"transform_param\":0}",
                "{\"source_field_id\":1,\"transform\":\"identity\",\"transform_param\":2}",
                "{\"source_field_id\":2,\"transform\":\"month\"}", // string is not temporal
                "{\"source_field_id\":1,\"transform\":\"truncate\"}",
                "{\"source_field_id\":42,\"transform\":\"identity\"}")) {
            Reply r = post(c("/namespaces/ns/tables/t/alter"), "{\"ops\":[{\"op\":\"set_partition_spec\",\"fields\":[" + field + "]}]}");
            assertThat(r.status()).as(field).isEqualTo(422);
        }
    }

    @Test
    void signedZeroBoundsAreCanonicalizedOnStore() throws Exception {
        post(c("/namespaces/ns/tables/t/alter"), "{\"ops\":[{\"op\":\"add_column\",\"column\":{\"name\":\"d\",\"type\":\"double\"}}]}");
        String plusZero = Base64.getEncoder().encodeToString(new byte[8]);
        byte[] minus = new byte[8];
        minus[7] = (byte) 0x80;
        String minusZero = Base64.getEncoder().encodeToString(minus);
        String stats = "\"column_stats\":[{\"field_id\":4,\"value_count\":2,\"null_count\":1,\"lower_bound\":\"" + plusZero
                + "\",\"upper_bound\":\"" + minusZero + "\"},{\"field_id\":1,\"value_count\":2,\"null_count\":5}]";
        assertThat(commit(UUID.randomUUID().toString(), file("z", 2).replace("\"column_stats\":[]", stats)).status())
                .isEqualTo(200);
        JsonNode stored = server.files(cat, "ns", "t").get(0).get("column_stats").get(0);
        assertThat(stored.get("lower_bound").asText()).isEqualTo(minusZero);
        assertThat(stored.get("upper_bound").asText()).isEqualTo(plusZero);
        assertThat(stored.get("null_count").asLong()).isEqualTo(1);
        JsonNode clamped = server.files(cat, "ns", "t").get(0).get("column_stats").get(1);
        assertThat(clamped.get("null_count").asLong()).isEqualTo(2);
        assertThat(server.files(cat, "ns", "t").get(0).get("stats_state").asText()).isEqualTo("provided");
    }
}
