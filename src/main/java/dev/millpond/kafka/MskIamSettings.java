package dev.millpond.kafka;

import dev.millpond.config.ConfigException;
import dev.millpond.config.MskIamAuth;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Java-client side of {@code KAFKA_CONSUMER_SASL_MECHANISMS=OAUTHBEARER}: AWS MSK IAM tokens from the published
 * {@code software.amazon.msk:aws-msk-iam-auth} library (its OAUTHBEARER mode, as its README configures it), signed
 * with credentials from the standard AWS chain — on EKS that is IRSA, as in the original (spec "AWS Credential
 * Isolation": Kafka authenticates through the standard chain, the lake's S3 through {@code DUCKDB_S3_*}).
 */
public final class MskIamSettings {

    /** One class serves both as the login callback (token creation) and the client callback (SASL exchange). */
    static final String CALLBACK_HANDLER = "software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler";
    static final String LOGIN_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule";

    /** AWS SDK v2 system settings; the SDK reads these before the matching environment variables. */
    static final String SDK_REGION_PROPERTY = "aws.region";
    static final String SDK_ROLE_SESSION_NAME_PROPERTY = "aws.roleSessionName";

    private MskIamSettings() {
    }

    /**
     * Client properties to lay over the translated passthrough. MSK's IAM listener only speaks SASL over TLS, so an
     * unset {@code security.protocol} becomes {@code SASL_SSL}; an explicit non-SASL one would leave the token
     * unused, which is refused rather than connecting unauthenticated.
     */
    static Map<String, String> clientProperties(Map<String, String> translated) {
        String protocol = translated.get("security.protocol");
        if (protocol != null && !protocol.startsWith("SASL_")) {
            throw new ConfigException("KAFKA_CONSUMER_SECURITY_PROTOCOL=" + protocol + " cannot carry"
                    + " KAFKA_CONSUMER_SASL_MECHANISMS=OAUTHBEARER (MSK IAM); use SASL_SSL");
        }
        Map<String, String> props = new LinkedHashMap<>();
        props.put("security.protocol", protocol == null ? "SASL_SSL" : protocol);
        props.put("sasl.mechanism", "OAUTHBEARER");
        // No module options: the library then signs with the default AWS credential chain (IRSA on EKS).
        props.put("sasl.jaas.config", LOGIN_MODULE + " required;");
        props.put("sasl.login.callback.handler.class", CALLBACK_HANDLER);
        props.put("sasl.client.callback.handler.class", CALLBACK_HANDLER);
        return props;
    }

    /**
     * The library signs for the region of the AWS SDK's default region chain, which reads {@code AWS_REGION} but not
     * {@code AWS_DEFAULT_REGION} (the original accepted either); and the web-identity (IRSA) credential provider
     * names its STS session from {@code AWS_ROLE_SESSION_NAME}, which the original defaulted to {@code millpond}.
     * Neither can be passed to the library directly, so both become SDK system properties — unless already set,
     * since an explicit {@code -Daws.region} is the operator's word. The JVM runs one pipeline, so process-wide
     * settings are this pipeline's settings.
     */
    public static void applySdkSettings(MskIamAuth auth) {
        setIfAbsent(SDK_REGION_PROPERTY, auth.region());
        setIfAbsent(SDK_ROLE_SESSION_NAME_PROPERTY, auth.roleSessionName());
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}
