package dev.millpond.kafka;

import dev.millpond.config.ConfigException;
import dev.millpond.config.MillpondConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KafkaClientsTest {

    /** JVM-wide AWS SDK settings these tests touch; restored so other tests in the fork see the JVM as it was. */
    private static final List<String> SDK_PROPERTIES =
            List.of("aws.region", "aws.roleSessionName", "aws.accessKeyId", "aws.secretAccessKey");
    private final Map<String, String> savedProperties = new HashMap<>();

    @BeforeEach
    void clearSdkProperties() {
        for (String p : SDK_PROPERTIES) {
            savedProperties.put(p, System.getProperty(p));
            System.clearProperty(p);
        }
    }

    @AfterEach
    void restoreSdkProperties() {
        savedProperties.forEach((p, v) -> {
            if (v == null) {
                System.clearProperty(p);
            } else {
                System.setProperty(p, v);
            }
        });
    }

    @Test
    void plainConfigurationPassesThroughWithTheBatchCap() {
        MillpondConfig config = PumpEnvironment.load("b1:9092", "events", "g", "CONSUME_BATCH_SIZE", "250");

        Properties consumer = KafkaClients.consumerProperties(config.kafka(), config.consumeBatchSize());
        Properties admin = KafkaClients.adminProperties(config.kafka());

        Map<String, String> expectedConsumer = new HashMap<>(config.kafka().consumerProperties());
        expectedConsumer.put("max.poll.records", "250");
        assertThat(consumer).containsExactlyInAnyOrderEntriesOf(expectedConsumer);
        assertThat(admin).containsExactlyInAnyOrderEntriesOf(config.kafka().baseProperties());
        assertThat(consumer).doesNotContainKeys("sasl.login.callback.handler.class", "sasl.jaas.config");
    }

    @Test
    void oauthbearerSelectsTheMskIamLibraryForConsumerAndAdmin() {
        MillpondConfig config = PumpEnvironment.load("b-1.msk.example:9098", "events", "g",
                "KAFKA_CONSUMER_SASL_MECHANISMS", "OAUTHBEARER", "AWS_DEFAULT_REGION", "eu-west-1");

        Map<String, String> iam = Map.of(
                "security.protocol", "SASL_SSL",
                "sasl.mechanism", "OAUTHBEARER",
                "sasl.jaas.config", "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;",
                "sasl.login.callback.handler.class", "software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler",
                "sasl.client.callback.handler.class", "software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler");
        assertThat(KafkaClients.consumerProperties(config.kafka(), 1000)).containsAllEntriesOf(iam);
        assertThat(KafkaClients.adminProperties(config.kafka())).containsAllEntriesOf(iam);
        // The SDK's region chain ignores AWS_DEFAULT_REGION; the original's default session name applies.
        assertThat(System.getProperty("aws.region")).isEqualTo("eu-west-1");
        assertThat(System.getProperty("aws.roleSessionName")).isEqualTo("millpond");
    }

    @Test
    void anExplicitSdkRegionIsLeftAlone() {
        System.setProperty("aws.region", "us-east-2");
        MillpondConfig config = PumpEnvironment.load("b1:9098", "events", "g",
                "KAFKA_CONSUMER_SASL_MECHANISMS", "OAUTHBEARER", "AWS_REGION", "eu-west-1",
                "AWS_ROLE_SESSION_NAME", "ingest-7");

        KafkaClients.consumerProperties(config.kafka(), 1000);

        assertThat(System.getProperty("aws.region")).isEqualTo("us-east-2");
        assertThat(System.getProperty("aws.roleSessionName")).isEqualTo("ingest-7");
    }

    @Test
    void anExplicitSaslPlaintextProtocolIsKeptButANonSaslOneIsRefused() {
        MillpondConfig sasl = PumpEnvironment.load("b1:9098", "events", "g",
                "KAFKA_CONSUMER_SASL_MECHANISMS", "OAUTHBEARER", "AWS_REGION", "eu-west-1",
                "KAFKA_CONSUMER_SECURITY_PROTOCOL", "sasl_plaintext");
        MillpondConfig ssl = PumpEnvironment.load("b1:9098", "events", "g",
                "KAFKA_CONSUMER_SASL_MECHANISMS", "OAUTHBEARER", "AWS_REGION", "eu-west-1",
                "KAFKA_CONSUMER_SECURITY_PROTOCOL", "SSL");

        assertThat(KafkaClients.adminProperties(sasl.kafka())).containsEntry("security.protocol", "SASL_PLAINTEXT");
        assertThatThrownBy(() -> KafkaClients.adminProperties(ssl.kafka()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("KAFKA_CONSUMER_SECURITY_PROTOCOL=SSL")
                .hasMessageContaining("OAUTHBEARER");
    }

    /**
     * The Java consumer logs in while it is constructed: the login module asks the library's callback handler for
     * a token, which the library signs locally. Static credentials and the region come from SDK system
     * properties, so the default chain stops there and nothing reaches AWS; the bootstrap address is never
     * contacted because the consumer connects lazily.
     */
    @Test
    void theConsumerLogsInThroughTheLibraryWithoutContactingAws() {
        System.setProperty("aws.accessKeyId", "AKIDEXAMPLE");
        System.setProperty("aws.secretAccessKey", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
        MillpondConfig config = PumpEnvironment.load("127.0.0.1:9", "events", "g",
                "KAFKA_CONSUMER_SASL_MECHANISMS", "OAUTHBEARER", "AWS_REGION", "eu-west-1");

        Properties props = KafkaClients.consumerProperties(config.kafka(), 1000);
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            assertThat(consumer.metrics()).isNotEmpty();
        }
    }
}
