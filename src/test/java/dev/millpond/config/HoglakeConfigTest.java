package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HoglakeConfigTest {

    /** A minimal valid hoglake environment (the DuckLake variables of {@link TestEnv} stay and must be ignored). */
    static Map<String, String> env(String... kv) {
        Map<String, String> env = TestEnv.with(
                "MILLPOND_DESTINATION", "hoglake",
                "HOGLAKE_URL", "http://hoglake.internal:8080",
                "HOGLAKE_ALLOW_INSECURE_HTTP", "true",
                "HOGLAKE_CATALOG", "millpond",
                "HOGLAKE_NAMESPACE", "analytics",
                "HOGLAKE_TABLE", "events");
        return TestEnv.with(env, kv);
    }

    static MillpondConfig load(String... kv) {
        return ConfigLoader.load(env(kv));
    }

    @Test
    void defaults() {
        MillpondConfig c = load();
        HoglakeConfig h = c.hoglake();
        assertThat(c.destination()).isEqualTo(Destination.HOGLAKE);
        assertThat(h.url()).isEqualTo("http://hoglake.internal:8080");
        assertThat(h.catalog()).isEqualTo("millpond");
        assertThat(h.namespace()).isEqualTo("analytics");
        assertThat(h.table()).isEqualTo("events");
        assertThat(h.dataPath()).isEmpty();
        assertThat(h.s3().staticKeys()).isEmpty();
        assertThat(h.s3().endpoint()).isEmpty();
        assertThat(h.s3().region()).isEmpty();
        assertThat(h.s3().credentialSource()).isEqualTo("the AWS SDK default credential chain");
        assertThat(h.partitionBy()).isEmpty();
        assertThat(h.maxRetryCount()).isEqualTo(8);
        assertThat(h.requestTimeoutSeconds()).isEqualTo(45.0);
        assertThat(c.table()).isEqualTo("events");
        assertThat(c.pipelineLabel()).isEqualTo("events-events");
        assertThat(c.groupId()).isEqualTo("millpond-hoglake-events-events");
        assertThat(c.kafka().consumerProperties()).containsEntry("group.id", "millpond-hoglake-events-events")
                .containsEntry("client.id", "millpond-events-events-1");
        assertThatThrownBy(c::ducklake).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void groupIdOverrideAndEmptyFallback() {
        assertThat(load("GROUP_ID", "g").groupId()).isEqualTo("g");
        assertThat(load("GROUP_ID", "").groupId()).isEqualTo("millpond-hoglake-events-events");
    }

    @Test
    void duckLakeVariablesAreNotRead() {
        MillpondConfig c = load("DUCKLAKE_TABLE", "bad name!", "DUCKLAKE_MAX_RETRY_COUNT", "x",
                "DUCKDB_S3_ENDPOINT", "", "DUCKLAKE_RDS_PASSWORD", null);
        assertThat(c.table()).isEqualTo("events");
    }

    @Test
    void defaultBudgetSitsJustInsideTheLivenessDeadline() {
        assertThat(HoglakeConfigParser.worstCaseFlushSeconds(8, 45.0)).isEqualTo(473.75);
        assertThat(HoglakeConfigParser.worstCaseFlushSeconds(1, 45.0)).isEqualTo(45.0);
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                arguments("HOGLAKE_CATALOG", "a", "catalog", "a"),
                arguments("HOGLAKE_CATALOG", "m-1_x", "catalog", "m-1_x"),
                arguments("HOGLAKE_CATALOG", "a" + "b".repeat(62), "catalog", "a" + "b".repeat(62)),
                arguments("HOGLAKE_NAMESPACE", "_Ns-1", "namespace", "_Ns-1"),
                arguments("HOGLAKE_TABLE", "T" + "x".repeat(127), "table", "T" + "x".repeat(127)),
                arguments("HOGLAKE_TABLE", "events-raw", "table", "events-raw"),
                arguments("HOGLAKE_URL", " https://h:1/root/ ", "url", "https://h:1/root/"),
                arguments("HOGLAKE_URL", "http://127.0.0.1:8080", "url", "http://127.0.0.1:8080"),
                arguments("HOGLAKE_URL", "http://localhost:8080", "url", "http://localhost:8080"),
                arguments("HOGLAKE_URL", "http://[::1]:8080", "url", "http://[::1]:8080"),
                arguments("HOGLAKE_DATA_PATH", "", "dataPath", Optional.empty()),
                arguments("HOGLAKE_DATA_PATH", "   ", "dataPath", Optional.empty()),
                arguments("HOGLAKE_DATA_PATH", "s3://my-bucket", "dataPath", Optional.of("s3://my-bucket")),
                arguments("HOGLAKE_DATA_PATH", " s3://b.c.d/lake/x/ ", "dataPath", Optional.of("s3://b.c.d/lake/x/")),
                arguments("HOGLAKE_S3_ENDPOINT", " http://127.0.0.1:9000 ", "s3.endpoint",
                        Optional.of("http://127.0.0.1:9000")),
                arguments("HOGLAKE_S3_ENDPOINT", "  ", "s3.endpoint", Optional.empty()),
                arguments("HOGLAKE_S3_REGION", "eu-west-1", "s3.region", Optional.of("eu-west-1")),
                arguments("HOGLAKE_S3_REGION", "", "s3.region", Optional.empty()),
                arguments("HOGLAKE_S3_ACCESS_KEY", " ", "s3.staticKeys", Optional.empty()),
                arguments("HOGLAKE_MAX_RETRY_COUNT", " 3 ", "maxRetryCount", 3),
                arguments("HOGLAKE_MAX_RETRY_COUNT", "", "maxRetryCount", 8),
                arguments("HOGLAKE_MAX_RETRY_COUNT", "+7", "maxRetryCount", 7),
                arguments("HOGLAKE_REQUEST_TIMEOUT_S", "30", "requestTimeoutSeconds", 30.0),
                arguments("HOGLAKE_REQUEST_TIMEOUT_S", "2.5", "requestTimeoutSeconds", 2.5),
                arguments("HOGLAKE_REQUEST_TIMEOUT_S", "1e1", "requestTimeoutSeconds", 10.0),
                arguments("HOGLAKE_REQUEST_TIMEOUT_S", ".5", "requestTimeoutSeconds", 0.5),
                arguments("HOGLAKE_REQUEST_TIMEOUT_S", "1_0", "requestTimeoutSeconds", 10.0),
                arguments("HOGLAKE_REQUEST_TIMEOUT_S", " ", "requestTimeoutSeconds", 45.0));
    }

    @ParameterizedTest(name = "{0}=''{1}'' -> {2}={3}")
    @MethodSource("accepted")
    void acceptsValue(String variable, String value, String property, Object expected) {
        assertThat(load(variable, value).hoglake()).extracting(property).isEqualTo(expected);
    }

    static Stream<Arguments> rejected() {
        String notSet = " is not set";
        return Stream.of(
                arguments(new String[] {"HOGLAKE_URL", null}, "Required environment variable HOGLAKE_URL" + notSet),
                arguments(new String[] {"HOGLAKE_URL", ""}, "Required environment variable HOGLAKE_URL" + notSet),
                arguments(new String[] {"HOGLAKE_URL", "hoglake:8080"}, "HOGLAKE_URL 'hoglake:8080' is not an http://"),
                arguments(new String[] {"HOGLAKE_URL", "ftp://h"}, "HOGLAKE_URL 'ftp://h' is not an http://"),
                arguments(new String[] {"HOGLAKE_ALLOW_INSECURE_HTTP", null}, "is plain http to another host"),
                arguments(new String[] {"HOGLAKE_ALLOW_INSECURE_HTTP", "false"}, "HOGLAKE_ALLOW_INSECURE_HTTP=true"),
                arguments(new String[] {"HOGLAKE_ALLOW_INSECURE_HTTP", null, "HOGLAKE_URL",
                        "http://svc:pw-in-url@hoglake:8080"}, "'http://***@hoglake:8080' is plain http"),
                arguments(new String[] {"HOGLAKE_ALLOW_INSECURE_HTTP", null, "HOGLAKE_URL", "http://127.0.0.1.evil:80"},
                        "is plain http to another host"),
                arguments(new String[] {"HOGLAKE_ALLOW_INSECURE_HTTP", "yes"}, "HOGLAKE_ALLOW_INSECURE_HTTP"),
                arguments(new String[] {"HOGLAKE_URL", "http://h/?x=1"}, "HOGLAKE_URL 'http://h/?x=1' is not"),
                arguments(new String[] {"HOGLAKE_CATALOG", null}, "Required environment variable HOGLAKE_CATALOG" + notSet),
                arguments(new String[] {"HOGLAKE_CATALOG", "Millpond"},
                        "HOGLAKE_CATALOG 'Millpond' is not a valid hoglake catalog name (must match [a-z][a-z0-9_-]{0,62})"),
                arguments(new String[] {"HOGLAKE_CATALOG", "1pond"}, "HOGLAKE_CATALOG '1pond' is not a valid"),
                arguments(new String[] {"HOGLAKE_CATALOG", "a" + "b".repeat(63)}, "is not a valid hoglake catalog name"),
                arguments(new String[] {"HOGLAKE_CATALOG", "pond\n"}, "HOGLAKE_CATALOG 'pond\\n' is not a valid"),
                arguments(new String[] {"HOGLAKE_NAMESPACE", null}, "Required environment variable HOGLAKE_NAMESPACE" + notSet),
                arguments(new String[] {"HOGLAKE_NAMESPACE", "1ns"},
                        "HOGLAKE_NAMESPACE '1ns' is not a valid hoglake identifier (must match [A-Za-z_][A-Za-z0-9_-]{0,127})"),
                arguments(new String[] {"HOGLAKE_NAMESPACE", "a.b"}, "HOGLAKE_NAMESPACE 'a.b' is not a valid hoglake identifier"),
                arguments(new String[] {"HOGLAKE_TABLE", ""}, "Required environment variable HOGLAKE_TABLE" + notSet),
                arguments(new String[] {"HOGLAKE_TABLE", "x".repeat(129)}, "is not a valid hoglake identifier"),
                arguments(new String[] {"HOGLAKE_TABLE", "it's"}, "HOGLAKE_TABLE \"it's\" is not a valid hoglake identifier"),
                arguments(new String[] {"HOGLAKE_DATA_PATH", "my-bucket/lake"},
                        "HOGLAKE_DATA_PATH 'my-bucket/lake' is not an s3:// URI (expected s3://bucket/prefix/)"),
                arguments(new String[] {"HOGLAKE_DATA_PATH", "s3://My-Bucket/x"}, "is not an s3:// URI"),
                arguments(new String[] {"HOGLAKE_DATA_PATH", "s3://ab"}, "is not an s3:// URI"),
                arguments(new String[] {"HOGLAKE_DATA_PATH", "s3a://bucket/x"}, "is not an s3:// URI"),
                arguments(new String[] {"HOGLAKE_DATA_PATH", "s3://bucket-/x"}, "is not an s3:// URI"),
                arguments(new String[] {"HOGLAKE_S3_ACCESS_KEY", "AKIA"},
                        "HOGLAKE_S3_ACCESS_KEY is set but HOGLAKE_S3_SECRET_KEY is not: set both HOGLAKE_S3_ACCESS_KEY"
                                + " and HOGLAKE_S3_SECRET_KEY"),
                arguments(new String[] {"HOGLAKE_S3_SECRET_KEY", "sk", "HOGLAKE_S3_ACCESS_KEY", "  "},
                        "HOGLAKE_S3_SECRET_KEY is set but HOGLAKE_S3_ACCESS_KEY is not"),
                arguments(new String[] {"HOGLAKE_MAX_RETRY_COUNT", "0"}, "HOGLAKE_MAX_RETRY_COUNT=0 must be a positive integer"),
                arguments(new String[] {"HOGLAKE_MAX_RETRY_COUNT", "-1"}, "HOGLAKE_MAX_RETRY_COUNT=-1 must be a positive integer"),
                arguments(new String[] {"HOGLAKE_MAX_RETRY_COUNT", "eight"},
                        "HOGLAKE_MAX_RETRY_COUNT='eight' must be a positive integer"),
                arguments(new String[] {"HOGLAKE_MAX_RETRY_COUNT", "2.5"}, "HOGLAKE_MAX_RETRY_COUNT='2.5' must be a positive integer"),
                arguments(new String[] {"HOGLAKE_REQUEST_TIMEOUT_S", "0"}, "HOGLAKE_REQUEST_TIMEOUT_S=0.0 must be a positive number"),
                arguments(new String[] {"HOGLAKE_REQUEST_TIMEOUT_S", "-1.5"}, "HOGLAKE_REQUEST_TIMEOUT_S=-1.5 must be a positive number"),
                arguments(new String[] {"HOGLAKE_REQUEST_TIMEOUT_S", "45s"}, "HOGLAKE_REQUEST_TIMEOUT_S='45s' must be a positive number"),
                arguments(new String[] {"HOGLAKE_REQUEST_TIMEOUT_S", "0x10"}, "HOGLAKE_REQUEST_TIMEOUT_S='0x10' must be a positive number"),
                // The liveness bound: N·timeout + 1.25·Σ min(2^a, 30) must stay within 480 s.
                arguments(new String[] {"HOGLAKE_MAX_RETRY_COUNT", "40"},
                        "HOGLAKE_MAX_RETRY_COUNT=40 with HOGLAKE_REQUEST_TIMEOUT_S=45.0 allows a single flush to spend up"
                                + " to 3114s inside sink.write(), past the 480s liveness deadline"),
                arguments(new String[] {"HOGLAKE_MAX_RETRY_COUNT", "2", "HOGLAKE_REQUEST_TIMEOUT_S", "300"},
                        "HOGLAKE_MAX_RETRY_COUNT=2 with HOGLAKE_REQUEST_TIMEOUT_S=300.0 allows a single flush to spend up"
                                + " to 601s inside sink.write(), past the 480s liveness deadline"),
                arguments(new String[] {"HOGLAKE_REQUEST_TIMEOUT_S", "46"}, "up to 482s inside sink.write()"),
                arguments(new String[] {"HOGLAKE_REQUEST_TIMEOUT_S", "inf"}, "HOGLAKE_REQUEST_TIMEOUT_S=inf allows"),
                arguments(new String[] {"HOGLAKE_REQUEST_TIMEOUT_S", "nan"}, "liveness deadline"),
                arguments(new String[] {"HOGLAKE_PARTITION_BY", " , "}, "HOGLAKE_PARTITION_BY is set but contains no entries"),
                arguments(new String[] {"DUCKLAKE_PARTITION_BY", "year(_inserted_at)"},
                        "DUCKLAKE_PARTITION_BY is set but MILLPOND_DESTINATION=hoglake reads HOGLAKE_PARTITION_BY"),
                arguments(new String[] {"MILLPOND_VARIANT_COLUMNS", "properties"},
                        "MILLPOND_VARIANT_COLUMNS is DuckLake-only: millpond has no write path for hoglake's variant type yet"),
                arguments(new String[] {"MILLPOND_VARIANT_COLUMNS", "properties", "HOGLAKE_URL", null},
                        "MILLPOND_VARIANT_COLUMNS is DuckLake-only"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("rejected")
    void rejectsNamingTheVariable(String[] kv, String expected) {
        assertThatThrownBy(() -> load(kv)).isInstanceOf(ConfigException.class).hasMessageContaining(expected);
    }

    @Test
    void livenessMessageIsExact() {
        assertThatThrownBy(() -> load("HOGLAKE_MAX_RETRY_COUNT", "9"))
                .hasMessage("HOGLAKE_MAX_RETRY_COUNT=9 with HOGLAKE_REQUEST_TIMEOUT_S=45.0 allows a single flush to"
                        + " spend up to 556s inside sink.write(), past the 480s liveness deadline"
                        + " (server.HealthState.max_poll_age_s): the consume loop is single threaded, so the pod would"
                        + " be killed mid-flush rather than crashing with an error. Lower either knob.");
    }

    @Test
    void staticKeysArePairedAndSecretNeverPrints() {
        HoglakeConfig h = load("HOGLAKE_S3_ACCESS_KEY", "AKIAHOG", "HOGLAKE_S3_SECRET_KEY", "hog-s3cr3t").hoglake();
        assertThat(h.s3().staticKeys()).hasValueSatisfying(k -> {
            assertThat(k.accessKey()).isEqualTo("AKIAHOG");
            assertThat(k.secretKey().reveal()).isEqualTo("hog-s3cr3t");
        });
        assertThat(h.s3().credentialSource()).contains("static keys").doesNotContain("AKIAHOG");
        assertThat(h.toString()).doesNotContain("hog-s3cr3t");
    }

    static Stream<Arguments> partitionSpecs() {
        return Stream.of(
                arguments("team_id", "identity(team_id)"),
                arguments("team_id,month(_inserted_at)", "identity(team_id), month(_inserted_at)"),
                arguments(" Identity( team_id ) , YEAR(ts),", "identity(team_id), year(ts)"),
                arguments("day(ts), hour(ts)", "day(ts), hour(ts)"),
                arguments("bucket(id, 16)", "bucket(id, 16)"),
                arguments("BUCKET( id ,1 ),team_id", "bucket(id, 1), identity(team_id)"),
                arguments("bucket(id, 8), bucket(id, 16)", "bucket(id, 8), bucket(id, 16)"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("partitionSpecs")
    void parsesPartitionGrammarAndPrintsItBack(String raw, String printed) {
        List<HoglakePartitionField> fields = load("HOGLAKE_PARTITION_BY", raw).hoglake().partitionBy();
        assertThat(HoglakePartitionField.grammar(fields)).isEqualTo(printed);
        // The printed form is itself accepted and means the same spec.
        assertThat(load("HOGLAKE_PARTITION_BY", printed).hoglake().partitionBy()).isEqualTo(fields);
    }

    @Test
    void partitionFieldsCarryTransformAndBucketCount() {
        assertThat(load("HOGLAKE_PARTITION_BY", "team_id, bucket(uuid, 4), month(_inserted_at)").hoglake().partitionBy())
                .containsExactly(HoglakePartitionField.identity("team_id"), HoglakePartitionField.bucket("uuid", 4),
                        new HoglakePartitionField("_inserted_at", HoglakeTransform.MONTH, java.util.OptionalInt.empty()));
    }

    static Stream<Arguments> badPartitionSpecs() {
        return Stream.of(
                arguments("truncate(name, 4)", "entry 'truncate(name, 4)' uses unknown transform 'truncate'"),
                arguments("week(ts)", "uses unknown transform 'week'"),
                arguments("bucket(id)", "entry 'bucket(id)' must be bucket(col, N)"),
                arguments("bucket(id, 0)", "has non-positive bucket count 0"),
                arguments("bucket(id, -2)", "has non-positive bucket count -2"),
                arguments("bucket(id, x)", "has non-integer bucket count 'x'"),
                arguments("bucket(id, 1, 2)", "must be bucket(col, N)"),
                arguments("month()", "entry 'month()' must be month(col)"),
                arguments("year(a, b)", "must be year(col)"),
                arguments("team_id)", "entry 'team_id)' is malformed"),
                arguments("(team_id", "is malformed"),
                arguments("team-id", "has unsafe column name 'team-id' (must match [a-zA-Z_][a-zA-Z0-9_]*)"),
                arguments("day(1ts)", "has unsafe column name '1ts'"),
                arguments("team_id, team_id", "entry 'team_id' is duplicated"),
                arguments("team_id, identity(team_id)", "entry 'identity(team_id)' is duplicated"),
                arguments("Month(ts),month(ts)", "is duplicated"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badPartitionSpecs")
    void refusesPartitionSpecAtStartup(String raw, String expected) {
        assertThatThrownBy(() -> load("HOGLAKE_PARTITION_BY", raw))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("HOGLAKE_PARTITION_BY ")
                .hasMessageContaining(expected)
                .hasMessageContaining("supported forms: col | transform(col) | bucket(col, N)");
    }
}
