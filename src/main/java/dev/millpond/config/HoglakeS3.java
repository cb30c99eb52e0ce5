package dev.millpond.config;

import java.util.Optional;

/**
 * The object-store settings of the hoglake write path (HOGLAKE_S3_*). The two keys come as a pair or not at all:
 * without them the AWS SDK's default credential chain applies (in Kubernetes, the ServiceAccount's web identity).
 *
 * @param staticKeys HOGLAKE_S3_ACCESS_KEY + HOGLAKE_S3_SECRET_KEY, or empty for the default credential chain
 * @param endpoint   HOGLAKE_S3_ENDPOINT (MinIO and the like); empty means AWS
 * @param region     HOGLAKE_S3_REGION; empty means the SDK's own region lookup (AWS_REGION)
 */
public record HoglakeS3(Optional<StaticKeys> staticKeys, Optional<String> endpoint, Optional<String> region) {

    /** A static key pair; the secret never prints. */
    public record StaticKeys(String accessKey, Secret secretKey) {
    }

    /** How the credentials are found, for the probe's log line (never the key itself). */
    public String credentialSource() {
        return staticKeys.isPresent()
                ? "static keys (HOGLAKE_S3_ACCESS_KEY / HOGLAKE_S3_SECRET_KEY)"
                : "the AWS SDK default credential chain";
    }
}
