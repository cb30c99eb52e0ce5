package dev.millpond.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Java Kafka client properties built from the core variables and the {@code KAFKA_CONSUMER_*} passthrough
 * (translated from librdkafka names by {@link LibrdkafkaTranslation}).
 *
 * @param baseProperties     in the original's order: {@code bootstrap.servers}, {@code client.id}, the
 *                           translation defaults, then the translated passthroughs. Shared by the consumer and
 *                           the AdminClient (the original's AdminClient uses the same base config)
 * @param consumerProperties {@code baseProperties} plus the keys the pump owns ({@code group.id},
 *                           {@code auto.offset.reset}, {@code enable.auto.commit=false}, fetch sizes,
 *                           {@code max.poll.interval.ms}); no deserializers
 * @param mskIam             present when {@code sasl.mechanisms=OAUTHBEARER} (MSK IAM); the client factory
 *                           must add the aws-msk-iam-auth login and callback handlers
 * @param warnings           one line per dropped or overridden passthrough; logged once by the loader
 */
public record KafkaClientConfig(
        Map<String, String> baseProperties,
        Map<String, String> consumerProperties,
        Optional<MskIamAuth> mskIam,
        List<String> warnings) {

    public KafkaClientConfig {
        baseProperties = Collections.unmodifiableMap(new LinkedHashMap<>(baseProperties));
        consumerProperties = Collections.unmodifiableMap(new LinkedHashMap<>(consumerProperties));
        warnings = List.copyOf(warnings);
    }

    /** Whether the consumer reads only committed transactional records ({@code isolation.level}). */
    public boolean readCommitted() {
        return "read_committed".equals(consumerProperties.get("isolation.level"));
    }

    /** Whether a property value would reveal a credential if printed. */
    public static boolean isSensitive(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.contains("password") || k.contains("secret") || k.equals("sasl.jaas.config")
                || k.equals("ssl.keystore.key") || k.endsWith(".pem");
    }

    /** A copy with sensitive values replaced by {@code ***}, for logging. */
    public static Map<String, String> redacted(Map<String, String> props) {
        Map<String, String> out = new LinkedHashMap<>();
        props.forEach((k, v) -> out.put(k, isSensitive(k) ? "***" : v));
        return out;
    }

    @Override
    public String toString() {
        List<String> w = new ArrayList<>(warnings);
        return "KafkaClientConfig[consumerProperties=" + redacted(consumerProperties)
                + ", mskIam=" + mskIam + ", warnings=" + w + "]";
    }
}
