package dev.millpond.config;

/**
 * Recorded when the passthrough selects {@code sasl.mechanisms=OAUTHBEARER}: the original then enabled the
 * MSK IAM token callback. The Java wiring (aws-msk-iam-auth login/callback handler) is done by the Kafka
 * client factory, not here.
 *
 * @param region          AWS_REGION, else AWS_DEFAULT_REGION (one of them is required)
 * @param roleSessionName AWS_ROLE_SESSION_NAME, default {@code millpond}
 */
public record MskIamAuth(String region, String roleSessionName) {
}
