package dev.millpond.kafka;

import dev.millpond.config.KafkaClientConfig;

import java.util.Map;
import java.util.Properties;

/**
 * The one place the pump's Kafka client properties are assembled: the translated configuration of
 * {@link KafkaClientConfig}, the consume batch cap, and — when {@code sasl.mechanisms=OAUTHBEARER} — the MSK IAM
 * settings, which the original added after the passthroughs ("then the OAuth callback").
 */
public final class KafkaClients {

    private KafkaClients() {
    }

    /** The AdminClient uses the consumer's base configuration, as in the original. */
    public static Properties adminProperties(KafkaClientConfig config) {
        return withAuth(config, config.baseProperties());
    }

    /**
     * @param maxPollRecords the Java consumer's fixed per-poll cap ({@code CONSUME_BATCH_SIZE}); the pump emulates
     *                       the original's shrinking per-call size below it
     */
    public static Properties consumerProperties(KafkaClientConfig config, int maxPollRecords) {
        Properties props = withAuth(config, config.consumerProperties());
        props.setProperty("max.poll.records", Integer.toString(maxPollRecords));
        return props;
    }

    private static Properties withAuth(KafkaClientConfig config, Map<String, String> properties) {
        Properties props = new Properties();
        props.putAll(properties);
        config.mskIam().ifPresent(auth -> {
            props.putAll(MskIamSettings.clientProperties(properties));
            MskIamSettings.applySdkSettings(auth);
        });
        return props;
    }
}
