package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LibrdkafkaTranslationTest {

    @TempDir
    static Path dir;

    private static Map<String, String> props(String... kv) {
        return TestEnv.load(kv).kafka().baseProperties();
    }

    @Test
    void variableNameToLibrdkafkaKey() {
        assertThat(LibrdkafkaTranslation.librdkafkaKey("KAFKA_CONSUMER_SECURITY_PROTOCOL"))
                .isEqualTo("security.protocol");
        assertThat(LibrdkafkaTranslation.librdkafkaKey("KAFKA_CONSUMER_QUEUED_MAX_MESSAGES_KBYTES"))
                .isEqualTo("queued.max.messages.kbytes");
    }

    /** One passthrough variable → the Java client entries it must produce. */
    static Stream<Arguments> translations() {
        return Stream.of(
                arguments("KAFKA_CONSUMER_SECURITY_PROTOCOL", "SASL_SSL", Map.of("security.protocol", "SASL_SSL")),
                arguments("KAFKA_CONSUMER_SECURITY_PROTOCOL", "sasl_ssl", Map.of("security.protocol", "SASL_SSL")),
                arguments("KAFKA_CONSUMER_SECURITY_PROTOCOL", "ssl", Map.of("security.protocol", "SSL")),
                arguments("KAFKA_CONSUMER_CLIENT_ID", "mine", Map.of("client.id", "mine")),
                arguments("KAFKA_CONSUMER_BOOTSTRAP_SERVERS", "b9:9092", Map.of("bootstrap.servers", "b9:9092")),
                arguments("KAFKA_CONSUMER_METADATA_BROKER_LIST", "b8:9092", Map.of("bootstrap.servers", "b8:9092")),
                arguments("KAFKA_CONSUMER_CLIENT_RACK", "use1-az1", Map.of("client.rack", "use1-az1")),
                arguments("KAFKA_CONSUMER_ISOLATION_LEVEL", "read_committed",
                        Map.of("isolation.level", "read_committed")),
                arguments("KAFKA_CONSUMER_ISOLATION_LEVEL", " Read_Uncommitted ",
                        Map.of("isolation.level", "read_uncommitted")),
                arguments("KAFKA_CONSUMER_FETCH_MAX_BYTES", "1000000", Map.of("fetch.max.bytes", "1000000")),
                arguments("KAFKA_CONSUMER_METADATA_MAX_AGE_MS", "60000", Map.of("metadata.max.age.ms", "60000")),
                arguments("KAFKA_CONSUMER_SOCKET_TIMEOUT_MS", "30000", Map.of("request.timeout.ms", "30000")),
                arguments("KAFKA_CONSUMER_RECONNECT_BACKOFF_MS", "50", Map.of("reconnect.backoff.ms", "50")),
                arguments("KAFKA_CONSUMER_ALLOW_AUTO_CREATE_TOPICS", "true",
                        Map.of("allow.auto.create.topics", "true")),
                arguments("KAFKA_CONSUMER_SASL_MECHANISMS", "scram-sha-512", Map.of("sasl.mechanism", "SCRAM-SHA-512")),
                arguments("KAFKA_CONSUMER_SASL_MECHANISM", "PLAIN", Map.of("sasl.mechanism", "PLAIN")),
                arguments("KAFKA_CONSUMER_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM", "none",
                        Map.of("ssl.endpoint.identification.algorithm", "")),
                arguments("KAFKA_CONSUMER_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM", "https",
                        Map.of("ssl.endpoint.identification.algorithm", "https")),
                arguments("KAFKA_CONSUMER_QUEUED_MAX_MESSAGES_KBYTES", "1024",
                        Map.of("max.partition.fetch.bytes", "1048576")),
                arguments("KAFKA_CONSUMER_QUEUED_MAX_MESSAGES_KBYTES", " 65_536 ",
                        Map.of("max.partition.fetch.bytes", "67108864")),
                arguments("KAFKA_CONSUMER_FETCH_MESSAGE_MAX_BYTES", "2097152",
                        Map.of("max.partition.fetch.bytes", "2097152")),
                arguments("KAFKA_CONSUMER_MAX_PARTITION_FETCH_BYTES", "4194304",
                        Map.of("max.partition.fetch.bytes", "4194304")),
                arguments("KAFKA_CONSUMER_CONNECTIONS_MAX_IDLE_MS", "0", Map.of("connections.max.idle.ms", "-1")),
                arguments("KAFKA_CONSUMER_CONNECTIONS_MAX_IDLE_MS", "300000",
                        Map.of("connections.max.idle.ms", "300000")),
                arguments("KAFKA_CONSUMER_SOCKET_RECEIVE_BUFFER_BYTES", "0", Map.of("receive.buffer.bytes", "-1")),
                arguments("KAFKA_CONSUMER_SOCKET_SEND_BUFFER_BYTES", "131072", Map.of("send.buffer.bytes", "131072")),
                arguments("KAFKA_CONSUMER_SSL_KEYSTORE_LOCATION", "/etc/kafka/client.p12",
                        Map.of("ssl.keystore.location", "/etc/kafka/client.p12", "ssl.keystore.type", "PKCS12")),
                arguments("KAFKA_CONSUMER_SSL_CA_PEM", "-----BEGIN CERTIFICATE-----x",
                        Map.of("ssl.truststore.certificates", "-----BEGIN CERTIFICATE-----x",
                                "ssl.truststore.type", "PEM")));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("translations")
    void translates(String variable, String value, Map<String, String> expected) {
        Map<String, String> p = props(variable, value);
        assertThat(p).containsAllEntriesOf(expected);
    }

    @Test
    void passthroughOverridesTheDefaultFetchBoundAndClientId() {
        Map<String, String> p = props("KAFKA_CONSUMER_QUEUED_MAX_MESSAGES_KBYTES", "2048",
                "KAFKA_CONSUMER_CLIENT_ID", "other");
        assertThat(p).containsEntry("max.partition.fetch.bytes", "2097152").containsEntry("client.id", "other");
        assertThat(props()).containsEntry("max.partition.fetch.bytes", Integer.toString(16384 * 1024));
    }

    static Stream<Arguments> saslCredentials() {
        return Stream.of(
                arguments("PLAIN", "alice", "pw-alice",
                        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"alice\""
                                + " password=\"pw-alice\";"),
                arguments("SCRAM-SHA-256", "bob", "p\"w\\x",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"bob\""
                                + " password=\"p\\\"w\\\\x\";"),
                arguments("scram-sha-512", "carol", "pw-carol",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"carol\""
                                + " password=\"pw-carol\";"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("saslCredentials")
    void saslCredentialsBecomeJaasConfig(String mechanism, String user, String password, String jaas) {
        Map<String, String> p = props("KAFKA_CONSUMER_SASL_MECHANISMS", mechanism,
                "KAFKA_CONSUMER_SASL_USERNAME", user, "KAFKA_CONSUMER_SASL_PASSWORD", password);
        assertThat(p).containsEntry("sasl.jaas.config", jaas)
                .doesNotContainKeys("sasl.username", "sasl.password", "sasl.mechanisms");
    }

    @Test
    void caLocationBecomesPemTruststore() throws IOException {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\n");
        assertThat(props("KAFKA_CONSUMER_SSL_CA_LOCATION", ca.toString()))
                .containsEntry("ssl.truststore.location", ca.toString())
                .containsEntry("ssl.truststore.type", "PEM");
    }

    @Test
    void caLocationProbeUsesJvmTrustStoreWithWarning() {
        MillpondConfig c = TestEnv.load("KAFKA_CONSUMER_SSL_CA_LOCATION", "probe");
        assertThat(c.kafka().baseProperties()).doesNotContainKeys("ssl.truststore.location", "ssl.truststore.type");
        assertThat(c.kafka().warnings()).singleElement().asString().contains("KAFKA_CONSUMER_SSL_CA_LOCATION");
    }

    @Test
    void separateCertificateAndKeyFilesBecomePemKeystoreContent() throws IOException {
        Path cert = Files.writeString(dir.resolve("client.crt"), "CERT-PEM");
        Path key = Files.writeString(dir.resolve("client.key"), "KEY-PEM");
        MillpondConfig c = TestEnv.load("KAFKA_CONSUMER_SSL_CERTIFICATE_LOCATION", cert.toString(),
                "KAFKA_CONSUMER_SSL_KEY_LOCATION", key.toString(), "KAFKA_CONSUMER_SSL_KEY_PASSWORD", "kp-secret");
        assertThat(c.kafka().baseProperties())
                .containsEntry("ssl.keystore.type", "PEM")
                .containsEntry("ssl.keystore.certificate.chain", "CERT-PEM")
                .containsEntry("ssl.keystore.key", "KEY-PEM")
                .containsEntry("ssl.key.password", "kp-secret")
                .doesNotContainKey("ssl.keystore.location");
        assertThat(c.kafka().toString()).doesNotContain("KEY-PEM", "kp\"", "=kp");
    }

    @Test
    void combinedCertificateAndKeyFileBecomesPemKeystoreLocation() throws IOException {
        Path both = Files.writeString(dir.resolve("client.pem"), "KEY+CERT");
        assertThat(props("KAFKA_CONSUMER_SSL_CERTIFICATE_LOCATION", both.toString(),
                "KAFKA_CONSUMER_SSL_KEY_LOCATION", both.toString()))
                .containsEntry("ssl.keystore.location", both.toString())
                .containsEntry("ssl.keystore.type", "PEM");
    }

    static Stream<Arguments> ownedKeys() {
        return Stream.of(
                arguments("KAFKA_CONSUMER_GROUP_ID", "other-group", "group.id", "millpond-events-events_tbl"),
                arguments("KAFKA_CONSUMER_ENABLE_AUTO_COMMIT", "true", "enable.auto.commit", "false"),
                arguments("KAFKA_CONSUMER_ENABLE_AUTO_OFFSET_STORE", "true", "enable.auto.offset.store", null),
                arguments("KAFKA_CONSUMER_FETCH_MIN_BYTES", "1", "fetch.min.bytes", "1048576"),
                arguments("KAFKA_CONSUMER_FETCH_WAIT_MAX_MS", "5", "fetch.max.wait.ms", "500"),
                arguments("KAFKA_CONSUMER_MAX_POLL_INTERVAL_MS", "10", "max.poll.interval.ms", "600000"),
                arguments("KAFKA_CONSUMER_STATISTICS_INTERVAL_MS", "1000", "statistics.interval.ms", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ownedKeys")
    void pumpOwnedKeysAreOverriddenWithOneWarning(String variable, String value, String javaKey, String expected) {
        MillpondConfig c = TestEnv.load(variable, value);
        if (expected == null) {
            assertThat(c.kafka().consumerProperties()).doesNotContainKey(javaKey);
        } else {
            assertThat(c.kafka().consumerProperties()).containsEntry(javaKey, expected);
        }
        assertThat(c.kafka().warnings()).singleElement().asString().contains(variable, "ignored");
    }

    static Stream<String> droppedKeys() {
        return Stream.of("KAFKA_CONSUMER_SOCKET_KEEPALIVE_ENABLE", "KAFKA_CONSUMER_LOG_CONNECTION_CLOSE",
                "KAFKA_CONSUMER_SOCKET_NAGLE_DISABLE", "KAFKA_CONSUMER_API_VERSION_REQUEST",
                "KAFKA_CONSUMER_QUEUED_MIN_MESSAGES", "KAFKA_CONSUMER_ENABLE_PARTITION_EOF",
                "KAFKA_CONSUMER_SESSION_TIMEOUT_MS", "KAFKA_CONSUMER_DEBUG");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("droppedKeys")
    void harmlessLibrdkafkaTuningIsDroppedWithOneWarning(String variable) {
        MillpondConfig c = TestEnv.load(variable, "true");
        String key = LibrdkafkaTranslation.librdkafkaKey(variable);
        assertThat(c.kafka().baseProperties()).doesNotContainKey(key);
        assertThat(c.kafka().warnings()).singleElement().asString().contains(variable, "dropped");
    }

    /** Refused at startup: the variable, its value and text the message must contain. */
    static Stream<Arguments> refused() {
        return Stream.of(
                arguments("KAFKA_CONSUMER_AUTO_OFFSET_RESET", "earliest",
                        "KAFKA_CONSUMER_AUTO_OFFSET_RESET is not honored — use KAFKA_AUTO_OFFSET_RESET"),
                arguments("KAFKA_CONSUMER_ENABLE_SSL_CERTIFICATE_VERIFICATION", "false", "cannot be honored"),
                arguments("KAFKA_CONSUMER_ENABLE_SSL_CERTIFICATE_VERIFICATION", "maybe", "must be true or false"),
                arguments("KAFKA_CONSUMER_SSL_CIPHER_SUITES", "ECDHE-RSA-AES256-GCM-SHA384", "cannot be honored"),
                arguments("KAFKA_CONSUMER_SSL_CRL_LOCATION", "/crl.pem", "cannot be honored"),
                arguments("KAFKA_CONSUMER_SASL_KERBEROS_KEYTAB", "/k.keytab", "cannot be honored"),
                arguments("KAFKA_CONSUMER_SASL_OAUTHBEARER_CONFIG", "principal=x", "cannot be honored"),
                arguments("KAFKA_CONSUMER_ENABLE_SASL_OAUTHBEARER_UNSECURE_JWT", "true", "cannot be honored"),
                arguments("KAFKA_CONSUMER_PLUGIN_LIBRARY_PATHS", "monitoring-interceptor", "cannot be honored"),
                arguments("KAFKA_CONSUMER_NO_SUCH_PROPERTY", "1", "is not a librdkafka consumer property"),
                arguments("KAFKA_CONSUMER_SASL_JAAS_CONFIG", "x", "is not a librdkafka consumer property"),
                arguments("KAFKA_CONSUMER_SECURITY_PROTOCOL", "tls", "must be one of plaintext"),
                arguments("KAFKA_CONSUMER_SASL_MECHANISMS", "AWS_MSK_IAM", "must be one of GSSAPI"),
                arguments("KAFKA_CONSUMER_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM", "strict", "must be 'none' or 'https'"),
                arguments("KAFKA_CONSUMER_QUEUED_MAX_MESSAGES_KBYTES", "16MB", "must be an integer"),
                arguments("KAFKA_CONSUMER_QUEUED_MAX_MESSAGES_KBYTES", "0", "must be between 1 and 2097151"),
                arguments("KAFKA_CONSUMER_CONNECTIONS_MAX_IDLE_MS", "forever", "must be an integer"),
                arguments("KAFKA_CONSUMER_SASL_USERNAME", "alice", "must be set together"),
                arguments("KAFKA_CONSUMER_SASL_PASSWORD", "pw", "must be set together"),
                arguments("KAFKA_CONSUMER_SSL_KEY_LOCATION", "/k.pem", "must be set together"),
                arguments("KAFKA_CONSUMER_SSL_CERTIFICATE_PEM", "CERT", "must be set together"),
                arguments("KAFKA_CONSUMER_SSL_CA_LOCATION", "/", "names a directory"),
                arguments("KAFKA_CONSUMER_ISOLATION_LEVEL", "committed", "must be read_committed or read_uncommitted"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("refused")
    void refusedAtStartupNamingTheVariable(String variable, String value, String message) {
        assertThatThrownBy(() -> TestEnv.load(variable, value))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(variable)
                .hasMessageContaining(message);
    }

    /** Combinations that cannot be honoured together. */
    static Stream<Arguments> conflicts() {
        return Stream.of(
                arguments(new String[] {"KAFKA_CONSUMER_QUEUED_MAX_MESSAGES_KBYTES", "1024",
                        "KAFKA_CONSUMER_FETCH_MESSAGE_MAX_BYTES", "100"}, "max.partition.fetch.bytes"),
                arguments(new String[] {"KAFKA_CONSUMER_BOOTSTRAP_SERVERS", "a:1",
                        "KAFKA_CONSUMER_METADATA_BROKER_LIST", "b:1"}, "bootstrap.servers"),
                arguments(new String[] {"KAFKA_CONSUMER_SASL_MECHANISMS", "PLAIN",
                        "KAFKA_CONSUMER_SASL_MECHANISM", "SCRAM-SHA-256"}, "disagree"),
                arguments(new String[] {"KAFKA_CONSUMER_SASL_MECHANISMS", "OAUTHBEARER",
                        "KAFKA_CONSUMER_SASL_USERNAME", "u", "KAFKA_CONSUMER_SASL_PASSWORD", "p"}, "PLAIN, SCRAM"),
                arguments(new String[] {"KAFKA_CONSUMER_SASL_USERNAME", "u", "KAFKA_CONSUMER_SASL_PASSWORD", "p"},
                        "KAFKA_CONSUMER_SASL_MECHANISMS=PLAIN"),
                arguments(new String[] {"KAFKA_CONSUMER_SSL_CA_LOCATION", "/a", "KAFKA_CONSUMER_SSL_CA_PEM", "x"},
                        "mutually exclusive"),
                arguments(new String[] {"KAFKA_CONSUMER_SSL_KEYSTORE_LOCATION", "/a.p12",
                        "KAFKA_CONSUMER_SSL_CERTIFICATE_PEM", "c", "KAFKA_CONSUMER_SSL_KEY_PEM", "k"},
                        "Only one client-certificate source"),
                arguments(new String[] {"KAFKA_CONSUMER_SSL_CERTIFICATE_LOCATION", "/nope/c.pem",
                        "KAFKA_CONSUMER_SSL_KEY_LOCATION", "/nope/k.pem"},
                        "KAFKA_CONSUMER_SSL_CERTIFICATE_LOCATION: cannot read"),
                arguments(new String[] {"KAFKA_CONSUMER_SECURITY_PROTOCOL", "SSL",
                        "KAFKA_CONSUMER_security_protocol", "SSL"}, "both set librdkafka property security.protocol"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("conflicts")
    void conflictingPassthroughsFail(String[] kv, String message) {
        assertThatThrownBy(() -> TestEnv.load(kv)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(message);
    }

    // ---- MSK IAM ----

    static Stream<Arguments> mskIam() {
        return Stream.of(
                arguments("eu-west-1", null, null, "eu-west-1", "millpond"),
                arguments(null, "us-east-2", "", "us-east-2", "millpond"),
                arguments("", "us-east-2", "writer-7", "us-east-2", "writer-7"),
                arguments("eu-west-1", "us-east-2", null, "eu-west-1", "millpond"));
    }

    @ParameterizedTest(name = "AWS_REGION={0} AWS_DEFAULT_REGION={1} AWS_ROLE_SESSION_NAME={2}")
    @MethodSource("mskIam")
    void oauthbearerRecordsMskIam(String region, String defaultRegion, String session, String expectedRegion,
            String expectedSession) {
        MillpondConfig c = TestEnv.load("KAFKA_CONSUMER_SASL_MECHANISMS", "OAUTHBEARER",
                "KAFKA_CONSUMER_SECURITY_PROTOCOL", "SASL_SSL", "AWS_REGION", region,
                "AWS_DEFAULT_REGION", defaultRegion, "AWS_ROLE_SESSION_NAME", session);
        assertThat(c.kafka().mskIam()).contains(new MskIamAuth(expectedRegion, expectedSession));
        assertThat(c.kafka().baseProperties()).containsEntry("sasl.mechanism", "OAUTHBEARER");
    }

    @Test
    void oauthbearerWithoutRegionFails() {
        assertThatThrownBy(() -> TestEnv.load("KAFKA_CONSUMER_SASL_MECHANISMS", "OAUTHBEARER", "AWS_REGION", ""))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("AWS_REGION or AWS_DEFAULT_REGION");
    }

    @Test
    void noMskIamWithoutOauthbearer() {
        assertThat(TestEnv.load("KAFKA_CONSUMER_SASL_MECHANISMS", "PLAIN", "KAFKA_CONSUMER_SASL_USERNAME", "u",
                "KAFKA_CONSUMER_SASL_PASSWORD", "p-secret").kafka().mskIam()).isEmpty();
    }

    // ---- the table against the Java client ----

    @Test
    void everyJavaKeyTheTableEmitsIsAKnownJavaConsumerConfig() {
        var known = org.apache.kafka.clients.consumer.ConsumerConfig.configNames();
        LibrdkafkaTranslation.table().values().stream()
                .filter(r -> r.javaKey() != null)
                .forEach(r -> assertThat(known).as("Java consumer config").contains(r.javaKey()));
        assertThat(known).contains("ssl.truststore.location", "ssl.truststore.type", "ssl.truststore.certificates",
                "ssl.keystore.certificate.chain", "ssl.keystore.key", "ssl.keystore.type", "sasl.jaas.config",
                "sasl.mechanism", "max.partition.fetch.bytes", "fetch.max.wait.ms", "send.buffer.bytes",
                "receive.buffer.bytes", "request.timeout.ms", "connections.max.idle.ms");
    }

    @Test
    void translatedPropertiesAreAcceptedByTheJavaClient() throws IOException {
        Path ca = Files.writeString(dir.resolve("ca2.pem"), "-----BEGIN CERTIFICATE-----\n");
        MillpondConfig c = TestEnv.load("KAFKA_CONSUMER_SECURITY_PROTOCOL", "sasl_ssl",
                "KAFKA_CONSUMER_SASL_MECHANISMS", "SCRAM-SHA-512", "KAFKA_CONSUMER_SASL_USERNAME", "u",
                "KAFKA_CONSUMER_SASL_PASSWORD", "p\"w-secret", "KAFKA_CONSUMER_SSL_CA_LOCATION", ca.toString(),
                "KAFKA_CONSUMER_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM", "none",
                "KAFKA_CONSUMER_QUEUED_MAX_MESSAGES_KBYTES", "8192",
                "KAFKA_CONSUMER_CONNECTIONS_MAX_IDLE_MS", "0");
        Map<String, Object> p = new java.util.HashMap<>(c.kafka().consumerProperties());
        p.put("key.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class.getName());
        // Parses and validates every value (types, enums) without opening a connection.
        var cfg = new org.apache.kafka.clients.consumer.ConsumerConfig(p);
        assertThat(cfg.getString("security.protocol")).isEqualTo("SASL_SSL");
        assertThat(cfg.getInt("max.partition.fetch.bytes")).isEqualTo(8192 * 1024);
        assertThat(cfg.getLong("connections.max.idle.ms")).isEqualTo(-1L);
        assertThat(cfg.getString("ssl.endpoint.identification.algorithm")).isEmpty();
        // The JAAS text parses with the escaped quote intact.
        var jaas = org.apache.kafka.common.security.JaasContext.loadClientContext(cfg.values());
        assertThat(jaas.configurationEntries()).singleElement()
                .satisfies(e -> assertThat(e.getOptions().get("password")).isEqualTo("p\"w-secret"));
    }

    /**
     * The PEM mappings really load in the Java client's SSL engine factory: the CA file as a PEM truststore,
     * separate certificate/key files as PEM keystore content, a combined file as a PEM keystore location.
     * Fixture: a throw-away self-signed certificate with a PKCS#8 key (src/test/resources/.../tls).
     */
    static Stream<Arguments> pemFiles() throws Exception {
        Path tls = Path.of(LibrdkafkaTranslationTest.class.getResource("tls/client.crt").toURI()).getParent();
        String crt = tls.resolve("client.crt").toString();
        String key = tls.resolve("client.key").toString();
        String combined = tls.resolve("client-combined.pem").toString();
        return Stream.of(
                arguments((Object) new String[] {"KAFKA_CONSUMER_SSL_CA_LOCATION", crt}),
                arguments((Object) new String[] {"KAFKA_CONSUMER_SSL_CA_LOCATION", crt,
                        "KAFKA_CONSUMER_SSL_CERTIFICATE_LOCATION", crt, "KAFKA_CONSUMER_SSL_KEY_LOCATION", key}),
                arguments((Object) new String[] {"KAFKA_CONSUMER_SSL_CA_LOCATION", crt,
                        "KAFKA_CONSUMER_SSL_CERTIFICATE_LOCATION", combined,
                        "KAFKA_CONSUMER_SSL_KEY_LOCATION", combined}));
    }

    @ParameterizedTest
    @MethodSource("pemFiles")
    void pemMappingsLoadInTheJavaSslFactory(String[] kv) {
        String[] all = java.util.Arrays.copyOf(kv, kv.length + 2);
        all[kv.length] = "KAFKA_CONSUMER_SECURITY_PROTOCOL";
        all[kv.length + 1] = "SSL";
        Map<String, Object> p = new java.util.HashMap<>(TestEnv.load(all).kafka().consumerProperties());
        p.put("key.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class.getName());
        var values = new org.apache.kafka.clients.consumer.ConsumerConfig(p).values();
        try (var factory = new org.apache.kafka.common.security.ssl.SslFactory(
                org.apache.kafka.common.network.ConnectionMode.CLIENT)) {
            factory.configure(values); // loads trust and key stores; throws on a bad mapping
            assertThat(factory.sslEngineFactory().truststore()).isNotNull();
            if (kv.length > 2) {
                assertThat(factory.sslEngineFactory().keystore()).isNotNull();
            }
        }
    }
}
