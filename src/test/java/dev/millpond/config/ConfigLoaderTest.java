package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigLoaderTest {

    @Test
    void defaults() {
        MillpondConfig c = TestEnv.load();
        assertThat(c.bootstrapServers()).isEqualTo("b1:9092");
        assertThat(c.topic()).isEqualTo("events");
        assertThat(c.replicaCount()).isEqualTo(3);
        assertThat(c.podName()).isEqualTo("millpond-1");
        assertThat(c.ordinal()).isEqualTo(1);
        assertThat(c.destination()).isEqualTo(Destination.DUCKLAKE);
        assertThat(c.groupId()).isEqualTo("millpond-events-events_tbl");
        assertThat(c.flushSizeBytes()).isEqualTo(104_857_600L);
        assertThat(c.flushIntervalMs()).isEqualTo(60_000L);
        assertThat(c.fetchMinBytes()).isEqualTo(1_048_576);
        assertThat(c.fetchMaxWaitMs()).isEqualTo(500);
        assertThat(c.consumeBatchSize()).isEqualTo(1000);
        assertThat(c.statsIntervalMs()).isEqualTo(5000L);
        assertThat(c.autoOffsetReset()).isEqualTo(AutoOffsetReset.EARLIEST);
        assertThat(c.brokerSource()).isEmpty();
        assertThat(c.httpPort()).isEqualTo(8000);
        assertThat(c.logLevel()).isEqualTo(LogLevel.INFO);
        assertThat(c.logFormat()).isEqualTo(LogFormat.JSON);
        assertThat(c.pipelineLabel()).isEqualTo("events-events_tbl");
        assertThat(c.recordHandling()).isEqualTo(RecordHandlingConfig.disabled());

        DuckLakeConfig d = c.ducklake();
        assertThat(d.table()).isEqualTo("events_tbl");
        assertThat(d.schema()).isEqualTo("main");
        assertThat(d.dataPath()).isEqualTo("s3://bucket/lake/");
        assertThat(d.connection()).isEqualTo(":memory:");
        assertThat(d.catalog().host()).isEqualTo("pg.internal");
        assertThat(d.catalog().port()).isEqualTo(5432);
        assertThat(d.catalog().database()).isEqualTo("ducklake");
        assertThat(d.catalog().user()).isEqualTo("ducklake");
        assertThat(d.catalog().password().reveal()).isEqualTo("pg-s3cr3t-pw");
        assertThat(d.catalog().sslMode()).isEqualTo("prefer");
        assertThat(d.maxRetryCount()).isEqualTo(100);
        assertThat(d.partitionBy()).isEmpty();
        assertThat(d.memoryLimit()).isEmpty();
        assertThat(d.s3().accessKeyId()).isEqualTo("AKIAEXAMPLE");
        assertThat(d.s3().secretAccessKey().reveal()).isEqualTo("s3-s3cr3t-key");
        assertThat(d.s3().endpoint()).isEmpty();
        assertThat(d.s3().useSsl()).isEmpty();
        assertThat(d.s3().urlStyle()).isEmpty();
        assertThat(d.s3().region()).isEmpty();

        assertThat(c.kafka().consumerProperties()).containsExactly(
                entry("bootstrap.servers", "b1:9092"),
                entry("client.id", "millpond-events-events_tbl-1"),
                entry("max.partition.fetch.bytes", "16777216"),
                entry("allow.auto.create.topics", "false"),
                entry("isolation.level", "read_committed"),
                entry("group.id", "millpond-events-events_tbl"),
                entry("auto.offset.reset", "earliest"),
                entry("enable.auto.commit", "false"),
                entry("fetch.min.bytes", "1048576"),
                entry("fetch.max.wait.ms", "500"),
                entry("max.poll.interval.ms", "600000"));
        assertThat(c.kafka().baseProperties()).doesNotContainKeys("group.id", "enable.auto.commit");
        assertThat(c.kafka().mskIam()).isEmpty();
        assertThat(c.kafka().warnings()).isEmpty();
        assertThat(c.kafka().readCommitted()).isTrue();
    }

    private static java.util.Map.Entry<String, String> entry(String k, String v) {
        return java.util.Map.entry(k, v);
    }

    /** Values that are accepted, with what they become. */
    static Stream<Arguments> acceptedValues() {
        return Stream.of(
                arguments("MILLPOND_DESTINATION", " DuckLake ", "destination", Destination.DUCKLAKE),
                arguments("MILLPOND_DESTINATION", "", "destination", Destination.DUCKLAKE),
                arguments("MILLPOND_DESTINATION", "   ", "destination", Destination.DUCKLAKE),
                arguments("KAFKA_AUTO_OFFSET_RESET", " LATEST ", "autoOffsetReset", AutoOffsetReset.LATEST),
                arguments("KAFKA_AUTO_OFFSET_RESET", "earliest", "autoOffsetReset", AutoOffsetReset.EARLIEST),
                arguments("BROKER_SOURCE", "  MSK ", "brokerSource", "msk"),
                arguments("MILLPOND_HTTP_PORT", "", "httpPort", 8000),
                arguments("MILLPOND_HTTP_PORT", " ", "httpPort", 8000),
                arguments("MILLPOND_HTTP_PORT", "0", "httpPort", 0),
                arguments("MILLPOND_HTTP_PORT", "65535", "httpPort", 65535),
                arguments("MILLPOND_HTTP_PORT", " 9_000 ", "httpPort", 9000),
                arguments("LOG_LEVEL", "DEBUG", "logLevel", LogLevel.DEBUG),
                arguments("LOG_LEVEL", "warn", "logLevel", LogLevel.WARNING),
                arguments("LOG_LEVEL", "", "logLevel", LogLevel.INFO),
                arguments("MILLPOND_LOG_FORMAT", "text", "logFormat", LogFormat.TEXT),
                arguments("MILLPOND_LOG_FORMAT", "", "logFormat", LogFormat.TEXT),
                arguments("MILLPOND_LOG_FORMAT", "JSON", "logFormat", LogFormat.JSON),
                arguments("CONSUME_BATCH_SIZE", "3", "consumeBatchSize", 10),
                arguments("CONSUME_BATCH_SIZE", "-5", "consumeBatchSize", 10),
                arguments("CONSUME_BATCH_SIZE", "10", "consumeBatchSize", 10),
                arguments("CONSUME_BATCH_SIZE", "5000", "consumeBatchSize", 5000),
                arguments("FLUSH_SIZE", "0", "flushSizeBytes", 0L),
                arguments("FLUSH_SIZE", "-1", "flushSizeBytes", -1L),
                arguments("FLUSH_SIZE", "10_000_000_000", "flushSizeBytes", 10_000_000_000L),
                arguments("FLUSH_INTERVAL_MS", "1000", "flushIntervalMs", 1000L),
                arguments("FETCH_MIN_BYTES", "1", "fetchMinBytes", 1),
                arguments("FETCH_MAX_WAIT_MS", "100", "fetchMaxWaitMs", 100),
                arguments("STATS_INTERVAL_MS", "0", "statsIntervalMs", 0L),
                arguments("GROUP_ID", "custom-group", "groupId", "custom-group"),
                arguments("GROUP_ID", "", "groupId", "millpond-events-events_tbl"));
    }

    @ParameterizedTest(name = "{0}=''{1}'' -> {2}={3}")
    @MethodSource("acceptedValues")
    void acceptsValue(String variable, String value, String property, Object expected) {
        MillpondConfig c = TestEnv.load(variable, value);
        assertThat(c).extracting(property).isEqualTo(expected);
    }

    static Stream<Arguments> acceptedDuckLakeValues() {
        return Stream.of(
                arguments("DUCKLAKE_SCHEMA", "", "schema", "main"),
                arguments("DUCKLAKE_SCHEMA", "raw_2", "schema", "raw_2"),
                arguments("DUCKLAKE_TABLE", "_t1", "table", "_t1"),
                arguments("DUCKLAKE_RDS_PORT", "6432", "catalog.port", 6432),
                arguments("DUCKLAKE_RDS_PORT", " 6_432 ", "catalog.port", 6432),
                arguments("DUCKLAKE_RDS_DATABASE", "lake", "catalog.database", "lake"),
                arguments("DUCKLAKE_RDS_USERNAME", "writer", "catalog.user", "writer"),
                arguments("DUCKLAKE_RDS_SSLMODE", "require", "catalog.sslMode", "require"),
                arguments("DUCKLAKE_RDS_HOST", "10.0.0.7", "catalog.host", "10.0.0.7"),
                arguments("DUCKLAKE_RDS_HOST", "[fd00::7]", "catalog.host", "[fd00::7]"),
                arguments("DUCKLAKE_RDS_HOST", "db-1.cluster-x.eu-west-1.rds.amazonaws.com", "catalog.host",
                        "db-1.cluster-x.eu-west-1.rds.amazonaws.com"),
                arguments("DUCKLAKE_CONNECTION", "/var/lib/millpond/lake.duckdb", "connection",
                        "/var/lib/millpond/lake.duckdb"),
                arguments("DUCKLAKE_MAX_RETRY_COUNT", "1", "maxRetryCount", 1),
                arguments("DUCKLAKE_MAX_RETRY_COUNT", " +250 ", "maxRetryCount", 250),
                arguments("DUCKLAKE_PARTITION_BY", "", "partitionBy", Optional.empty()),
                arguments("DUCKLAKE_PARTITION_BY", "  ", "partitionBy", Optional.empty()),
                arguments("DUCKLAKE_PARTITION_BY", "year(_inserted_at), month(_inserted_at)", "partitionBy",
                        Optional.of("year(_inserted_at), month(_inserted_at)")),
                arguments("DUCKDB_MEMORY_LIMIT", "", "memoryLimit", Optional.empty()),
                arguments("DUCKDB_MEMORY_LIMIT", "4GB", "memoryLimit", Optional.of("4GB")),
                arguments("DUCKDB_S3_ENDPOINT", "127.0.0.1:9000", "s3.endpoint", Optional.of("127.0.0.1:9000")),
                arguments("DUCKDB_S3_USE_SSL", "false", "s3.useSsl", Optional.of("false")),
                arguments("DUCKDB_S3_URL_STYLE", "path", "s3.urlStyle", Optional.of("path")),
                arguments("DUCKDB_S3_REGION", "us-east-1", "s3.region", Optional.of("us-east-1")));
    }

    @ParameterizedTest(name = "{0}=''{1}'' -> {2}={3}")
    @MethodSource("acceptedDuckLakeValues")
    void acceptsDuckLakeValue(String variable, String value, String property, Object expected) {
        DuckLakeConfig d = TestEnv.load(variable, value).ducklake();
        assertThat(d).extracting(property).isEqualTo(expected);
    }

    /** One row per bad value: the variable, the value (null = unset) and text the message must contain. */
    static Stream<Arguments> rejectedValues() {
        String notSet = " is not set";
        return Stream.of(
                arguments("KAFKA_BOOTSTRAP_SERVERS", null, "Required environment variable KAFKA_BOOTSTRAP_SERVERS is not set"),
                arguments("KAFKA_BOOTSTRAP_SERVERS", "", "Required environment variable KAFKA_BOOTSTRAP_SERVERS" + notSet),
                arguments("KAFKA_TOPIC", null, "Required environment variable KAFKA_TOPIC" + notSet),
                arguments("KAFKA_TOPIC", "", "Required environment variable KAFKA_TOPIC" + notSet),
                arguments("REPLICA_COUNT", null, "Required environment variable REPLICA_COUNT" + notSet),
                arguments("REPLICA_COUNT", "", "Required environment variable REPLICA_COUNT" + notSet),
                arguments("REPLICA_COUNT", "three", "REPLICA_COUNT must be an integer, got 'three'"),
                arguments("REPLICA_COUNT", "0", "Ordinal 1 >= REPLICA_COUNT 0"),
                arguments("REPLICA_COUNT", "1", "Ordinal 1 >= REPLICA_COUNT 1"),
                arguments("REPLICA_COUNT", "-2", "Ordinal 1 >= REPLICA_COUNT -2"),
                arguments("MILLPOND_DESTINATION", "iceberg", "MILLPOND_DESTINATION must be 'ducklake' or 'hoglake', got 'iceberg'"),
                arguments("FLUSH_SIZE", "", "FLUSH_SIZE must be an integer, got ''"),
                arguments("FLUSH_SIZE", "100MB", "FLUSH_SIZE must be an integer, got '100MB'"),
                arguments("FLUSH_SIZE", "99999999999999999999", "FLUSH_SIZE is out of range"),
                arguments("FLUSH_INTERVAL_MS", "1.5", "FLUSH_INTERVAL_MS must be an integer, got '1.5'"),
                arguments("FETCH_MIN_BYTES", "1e6", "FETCH_MIN_BYTES must be an integer, got '1e6'"),
                arguments("FETCH_MIN_BYTES", "3000000000", "FETCH_MIN_BYTES is out of range"),
                arguments("FETCH_MAX_WAIT_MS", "abc", "FETCH_MAX_WAIT_MS must be an integer, got 'abc'"),
                arguments("CONSUME_BATCH_SIZE", "lots", "CONSUME_BATCH_SIZE must be an integer, got 'lots'"),
                arguments("STATS_INTERVAL_MS", "5s", "STATS_INTERVAL_MS must be an integer, got '5s'"),
                arguments("KAFKA_AUTO_OFFSET_RESET", "", "KAFKA_AUTO_OFFSET_RESET must be 'earliest' or 'latest', got ''"),
                arguments("KAFKA_AUTO_OFFSET_RESET", "   ", "KAFKA_AUTO_OFFSET_RESET must be 'earliest' or 'latest'"),
                arguments("KAFKA_AUTO_OFFSET_RESET", "smallest", "KAFKA_AUTO_OFFSET_RESET must be 'earliest' or 'latest', got 'smallest'"),
                arguments("KAFKA_AUTO_OFFSET_RESET", "none", "KAFKA_AUTO_OFFSET_RESET must be 'earliest' or 'latest', got 'none'"),
                arguments("MILLPOND_HTTP_PORT", "65536", "MILLPOND_HTTP_PORT must be between 0 and 65535, got '65536'"),
                arguments("MILLPOND_HTTP_PORT", "-1", "MILLPOND_HTTP_PORT must be between 0 and 65535, got '-1'"),
                arguments("MILLPOND_HTTP_PORT", "http", "MILLPOND_HTTP_PORT must be an integer, got 'http'"),
                arguments("LOG_LEVEL", "LOUD", "LOG_LEVEL must be one of"),
                arguments("DUCKLAKE_TABLE", null, "Required environment variable DUCKLAKE_TABLE" + notSet),
                arguments("DUCKLAKE_TABLE", "", "Required environment variable DUCKLAKE_TABLE" + notSet),
                arguments("DUCKLAKE_TABLE", "my-table", "DUCKLAKE_TABLE contains unsafe characters"),
                arguments("DUCKLAKE_TABLE", "1table", "DUCKLAKE_TABLE contains unsafe characters"),
                arguments("DUCKLAKE_TABLE", "t;drop", "DUCKLAKE_TABLE contains unsafe characters"),
                arguments("DUCKLAKE_TABLE", "events\n", "DUCKLAKE_TABLE contains unsafe characters"),
                arguments("DUCKLAKE_SCHEMA", "a.b", "DUCKLAKE_SCHEMA contains unsafe characters"),
                arguments("DUCKLAKE_SCHEMA", " main", "DUCKLAKE_SCHEMA contains unsafe characters"),
                arguments("DUCKLAKE_DATA_PATH", null, "Required environment variable DUCKLAKE_DATA_PATH" + notSet),
                arguments("DUCKLAKE_DATA_PATH", "", "Required environment variable DUCKLAKE_DATA_PATH" + notSet),
                arguments("DUCKLAKE_CONNECTION", null, "Required environment variable DUCKLAKE_CONNECTION" + notSet),
                arguments("DUCKLAKE_CONNECTION", "", "Required environment variable DUCKLAKE_CONNECTION" + notSet),
                arguments("DUCKLAKE_RDS_HOST", null, "Required environment variable DUCKLAKE_RDS_HOST" + notSet),
                arguments("DUCKLAKE_RDS_HOST", "", "Required environment variable DUCKLAKE_RDS_HOST" + notSet),
                arguments("DUCKLAKE_RDS_HOST", "db sslmode=disable", "DUCKLAKE_RDS_HOST must be a DNS name"),
                arguments("DUCKLAKE_RDS_HOST", "db'", "DUCKLAKE_RDS_HOST must be a DNS name"),
                arguments("DUCKLAKE_RDS_HOST", "fd00::7", "DUCKLAKE_RDS_HOST must be a DNS name"),
                arguments("DUCKLAKE_RDS_HOST", "[not:an:ip]", "DUCKLAKE_RDS_HOST must be a DNS name"),
                arguments("DUCKLAKE_RDS_HOST", "256.1.1.1", "DUCKLAKE_RDS_HOST must be a DNS name"),
                arguments("DUCKLAKE_RDS_HOST", "db/x?socketFactory=y", "DUCKLAKE_RDS_HOST must be a DNS name"),
                arguments("DUCKLAKE_RDS_HOST", "-db", "DUCKLAKE_RDS_HOST must be a DNS name"),
                arguments("DUCKLAKE_RDS_PORT", "5432/x?socketFactory=java.lang.String",
                        "DUCKLAKE_RDS_PORT must be an integer"),
                arguments("DUCKLAKE_RDS_PORT", "5432 sslmode=disable", "DUCKLAKE_RDS_PORT must be an integer"),
                arguments("DUCKLAKE_RDS_PORT", "", "DUCKLAKE_RDS_PORT must be an integer"),
                arguments("DUCKLAKE_RDS_PORT", "0", "DUCKLAKE_RDS_PORT must be between 1 and 65535"),
                arguments("DUCKLAKE_RDS_PORT", "65536", "DUCKLAKE_RDS_PORT must be between 1 and 65535"),
                arguments("DUCKLAKE_RDS_SSLMODE", "required", "DUCKLAKE_RDS_SSLMODE must be one of"),
                arguments("DUCKLAKE_RDS_SSLMODE", "verify-full", "DUCKLAKE_RDS_SSLMODE=verify-full needs"),
                arguments("DUCKLAKE_RDS_SSLROOTCERT", "/no/such/ca.pem", "DUCKLAKE_RDS_SSLROOTCERT names no readable"),
                arguments("DUCKLAKE_CONNECTION", "lake.duckdb;access_mode=read_only",
                        "DUCKLAKE_CONNECTION must be :memory: or a plain file path"),
                arguments("DUCKLAKE_CONNECTION", "md:lake", "DUCKLAKE_CONNECTION must be :memory: or a plain file"),
                arguments("DUCKLAKE_RDS_PASSWORD", "abc", "DUCKLAKE_RDS_PASSWORD is shorter than 4 characters"),
                arguments("DUCKDB_S3_SECRET_ACCESS_KEY", "abc", "DUCKDB_S3_SECRET_ACCESS_KEY is shorter than 4"),
                arguments("DUCKLAKE_RDS_PASSWORD", null, "Required environment variable DUCKLAKE_RDS_PASSWORD" + notSet),
                arguments("DUCKLAKE_RDS_PASSWORD", "", "Required environment variable DUCKLAKE_RDS_PASSWORD" + notSet),
                arguments("DUCKLAKE_MAX_RETRY_COUNT", "0", "DUCKLAKE_MAX_RETRY_COUNT must be a positive integer"),
                arguments("DUCKLAKE_MAX_RETRY_COUNT", "-3", "DUCKLAKE_MAX_RETRY_COUNT must be a positive integer"),
                arguments("DUCKLAKE_MAX_RETRY_COUNT", "ten", "DUCKLAKE_MAX_RETRY_COUNT must be an integer, got 'ten'"),
                arguments("DUCKLAKE_MAX_RETRY_COUNT", "", "DUCKLAKE_MAX_RETRY_COUNT must be an integer, got ''"),
                arguments("DUCKLAKE_PARTITION_BY", "year(ts); DROP TABLE x", "DUCKLAKE_PARTITION_BY contains unsafe characters"),
                arguments("DUCKLAKE_PARTITION_BY", "day('x')", "DUCKLAKE_PARTITION_BY contains unsafe characters"),
                arguments("DUCKDB_S3_ACCESS_KEY_ID", null, "Required environment variable DUCKDB_S3_ACCESS_KEY_ID" + notSet),
                arguments("DUCKDB_S3_ACCESS_KEY_ID", "", "Required environment variable DUCKDB_S3_ACCESS_KEY_ID" + notSet),
                arguments("DUCKDB_S3_ACCESS_KEY_ID", "AK IA", "DUCKDB_S3_ACCESS_KEY_ID contains unsafe characters"),
                arguments("DUCKDB_S3_SECRET_ACCESS_KEY", null, "Required environment variable DUCKDB_S3_SECRET_ACCESS_KEY" + notSet),
                arguments("DUCKDB_S3_SECRET_ACCESS_KEY", "", "Required environment variable DUCKDB_S3_SECRET_ACCESS_KEY" + notSet),
                arguments("DUCKDB_S3_SECRET_ACCESS_KEY", "it's", "DUCKDB_S3_SECRET_ACCESS_KEY contains unsafe characters"),
                arguments("DUCKDB_S3_ENDPOINT", "", "DUCKDB_S3_ENDPOINT contains unsafe characters"),
                arguments("DUCKDB_S3_ENDPOINT", "host'; --", "DUCKDB_S3_ENDPOINT contains unsafe characters"),
                arguments("DUCKDB_S3_USE_SSL", "", "DUCKDB_S3_USE_SSL contains unsafe characters"),
                arguments("DUCKDB_S3_URL_STYLE", "path style", "DUCKDB_S3_URL_STYLE contains unsafe characters"),
                arguments("DUCKDB_S3_REGION", "", "DUCKDB_S3_REGION contains unsafe characters"),
                arguments("KAFKA_CONSUMER_AUTO_OFFSET_RESET", "latest",
                        "KAFKA_CONSUMER_AUTO_OFFSET_RESET is not honored — use KAFKA_AUTO_OFFSET_RESET"),
                arguments("MILLPOND_MAX_TABLE_COLUMNS", "0", "MILLPOND_MAX_TABLE_COLUMNS must be a positive integer"),
                arguments("MILLPOND_MAX_TABLE_COLUMNS", "many", "MILLPOND_MAX_TABLE_COLUMNS must be an integer"),
                arguments("MILLPOND_MAX_NEW_COLUMNS_PER_FLUSH", "-1",
                        "MILLPOND_MAX_NEW_COLUMNS_PER_FLUSH must be a positive integer"),
                arguments("MILLPOND_REJECTS", "yes", "MILLPOND_REJECTS must be true or false"),
                arguments("MILLPOND_REJECTS_MAX_VALUE_BYTES", "0",
                        "MILLPOND_REJECTS_MAX_VALUE_BYTES must be a positive integer"));
    }

    @ParameterizedTest(name = "{0}={1} -> {2}")
    @MethodSource("rejectedValues")
    void rejectsValueNamingTheVariable(String variable, String value, String expectedMessage) {
        assertThatThrownBy(() -> TestEnv.load(variable, value))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(expectedMessage)
                .hasMessageContaining(variable.startsWith("REPLICA_COUNT") ? "REPLICA_COUNT" : variable);
    }

    @Test
    void aShortPassthroughSecretRefusesStartupWithoutPrintingIt() {
        assertThatThrownBy(() -> TestEnv.load("KAFKA_CONSUMER_SASL_MECHANISMS", "PLAIN",
                "KAFKA_CONSUMER_SASL_USERNAME", "u", "KAFKA_CONSUMER_SASL_PASSWORD", "pw"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("KAFKA_CONSUMER_SASL_PASSWORD is shorter than 4 characters")
                .hasMessageNotContaining("pw'");
    }

    @Test
    void requiredMessageIsExact() {
        assertThatThrownBy(() -> TestEnv.load("KAFKA_TOPIC", null))
                .hasMessage("Required environment variable KAFKA_TOPIC is not set");
    }

    @Test
    void secretsNeverInMessages() {
        assertThatThrownBy(() -> TestEnv.load("DUCKDB_S3_SECRET_ACCESS_KEY", "my secret'value"))
                .hasMessageNotContaining("my secret'value")
                .hasMessageContaining("DUCKDB_S3_SECRET_ACCESS_KEY");
    }

    // ---- Python int() ----

    static Stream<Arguments> pythonIntAccepted() {
        return Stream.of(
                arguments("5", 5L), arguments(" 5 ", 5L), arguments("\t7\n", 7L), arguments("+5", 5L),
                arguments("-5", -5L), arguments("1_000", 1000L), arguments("1_0_0", 100L), arguments("007", 7L),
                arguments("0", 0L), arguments("-0", 0L), arguments(" +1_000_000 ", 1_000_000L),
                arguments("9223372036854775807", Long.MAX_VALUE));
    }

    @ParameterizedTest(name = "int(''{0}'') = {1}")
    @MethodSource("pythonIntAccepted")
    void pythonIntAccepts(String raw, long expected) {
        assertThat(PythonInt.parseLong("FLUSH_SIZE", raw)).isEqualTo(expected);
        assertThat(TestEnv.load("FLUSH_SIZE", raw).flushSizeBytes()).isEqualTo(expected);
    }

    static Stream<String> pythonIntRejected() {
        return Stream.of("", " ", "1__0", "_1", "1_", "+_1", "1.0", "1e3", "0x10", "++1", "+-1", "- 1", "1 0",
                "١٢", "five", "9223372036854775808");
    }

    @ParameterizedTest(name = "int(''{0}'') fails")
    @MethodSource("pythonIntRejected")
    void pythonIntRejects(String raw) {
        assertThatThrownBy(() -> TestEnv.load("FLUSH_INTERVAL_MS", raw))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("FLUSH_INTERVAL_MS ")
                .hasMessageContaining("'" + raw + "'");
    }

    // ---- ordinal ----

    static Stream<Arguments> ordinals() {
        return Stream.of(
                arguments("millpond-0", 0), arguments("millpond-2", 2), arguments("x-03", 3),
                arguments("my-app-writer-11", 11), arguments("a-b-0-7", 7));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("ordinals")
    void parsesOrdinal(String podName, int ordinal) {
        assertThat(ConfigLoader.parseOrdinal(podName)).isEqualTo(ordinal);
        assertThat(TestEnv.load("POD_NAME", podName, "REPLICA_COUNT", "20").ordinal()).isEqualTo(ordinal);
    }

    static Stream<String> badPodNames() {
        return Stream.of("pod", "millpond", "millpond-", "millpond-x", "millpond-1a", "millpond_1", "pod-99999999999");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badPodNames")
    void rejectsPodNameWithoutOrdinal(String podName) {
        assertThatThrownBy(() -> TestEnv.load("POD_NAME", podName))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Cannot parse ordinal from pod name '" + podName + "'")
                .hasMessageContaining("POD_NAME");
    }

    static Stream<Arguments> podNameSources() {
        return Stream.of(
                arguments("web-2", "web-1", "web-2"),
                arguments(null, "host-1", "host-1"),
                arguments("", "host-1", "host-1"),
                arguments(null, null, "millpond-0"),
                arguments("", "", "millpond-0"));
    }

    @ParameterizedTest(name = "POD_NAME={0} HOSTNAME={1} -> {2}")
    @MethodSource("podNameSources")
    void podNameBeatsHostname(String podName, String hostname, String expected) {
        MillpondConfig c = TestEnv.load("POD_NAME", podName, "HOSTNAME", hostname);
        assertThat(c.podName()).isEqualTo(expected);
    }

    @Test
    void podOrdinalIsNotAVariable() {
        assertThat(TestEnv.load("POD_NAME", "m-2", "POD_ORDINAL", "0").ordinal()).isEqualTo(2);
    }

    @Test
    void ordinalAtReplicaCountFailsWithExactText() {
        assertThatThrownBy(() -> TestEnv.load("POD_NAME", "millpond-3", "REPLICA_COUNT", "3"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Ordinal 3 >= REPLICA_COUNT 3");
        assertThatThrownBy(() -> TestEnv.load("POD_NAME", "x-03", "REPLICA_COUNT", " 2 "))
                .hasMessage("Ordinal 3 >= REPLICA_COUNT 2");
    }

    // ---- group id ----

    static Stream<Arguments> groupIds() {
        return Stream.of(
                arguments(Destination.DUCKLAKE, "t", "tbl", "millpond-t-tbl"),
                arguments(Destination.HOGLAKE, "t", "tbl", "millpond-hoglake-t-tbl"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groupIds")
    void defaultGroupIdPerDestination(Destination d, String topic, String table, String expected) {
        assertThat(MillpondConfig.defaultGroupId(d, topic, table)).isEqualTo(expected);
    }

    @Test
    void groupIdFlowsIntoConsumerProperties() {
        MillpondConfig c = TestEnv.load("GROUP_ID", "g1", "KAFKA_AUTO_OFFSET_RESET", "Latest",
                "FETCH_MIN_BYTES", "10", "FETCH_MAX_WAIT_MS", "20");
        assertThat(c.kafka().consumerProperties())
                .containsEntry("group.id", "g1")
                .containsEntry("auto.offset.reset", "latest")
                .containsEntry("fetch.min.bytes", "10")
                .containsEntry("fetch.max.wait.ms", "20");
    }

    @Test
    void tableWidthAndRejectsDefaultsAndOverrides() {
        assertThat(TestEnv.load("GROUP_ID", "").landing()).isEqualTo(new LandingLimits(1000, 100, true, LandingLimits.UNCAPPED));
        assertThat(TestEnv.load("MILLPOND_MAX_TABLE_COLUMNS", " 2_000 ", "MILLPOND_MAX_NEW_COLUMNS_PER_FLUSH", "50",
                "MILLPOND_REJECTS", "False", "MILLPOND_REJECTS_MAX_VALUE_BYTES", "1024").landing())
                .isEqualTo(new LandingLimits(2000, 50, false, 1024));
    }

    @Test
    void otherDestinationsVariablesAreIgnored() {
        MillpondConfig c = TestEnv.load("HOGLAKE_TABLE", "bad name!", "HOGLAKE_MAX_RETRY_COUNT", "x");
        assertThat(c.table()).isEqualTo("events_tbl");
    }

    // ---- secrets ----

    @Test
    void secretsNeverInToString() {
        MillpondConfig c = TestEnv.load("KAFKA_CONSUMER_SASL_MECHANISMS", "PLAIN",
                "KAFKA_CONSUMER_SASL_USERNAME", "alice", "KAFKA_CONSUMER_SASL_PASSWORD", "kafka-s3cr3t-pw",
                "KAFKA_CONSUMER_SSL_KEY_PASSWORD", "key-s3cr3t-pw");
        String s = c.toString();
        assertThat(s).doesNotContain("pg-s3cr3t-pw", "s3-s3cr3t-key", "kafka-s3cr3t-pw", "key-s3cr3t-pw")
                .contains("events_tbl", "***");
        assertThat(c.ducklake().toString()).doesNotContain("pg-s3cr3t-pw", "s3-s3cr3t-key");
        assertThat(c.kafka().toString()).doesNotContain("kafka-s3cr3t-pw", "key-s3cr3t-pw");
        assertThat(Secret.of("x").toString()).isEqualTo("***");
    }
}
