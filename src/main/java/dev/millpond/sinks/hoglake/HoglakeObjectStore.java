package dev.millpond.sinks.hoglake;

import dev.millpond.config.HoglakeS3;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.net.URI;
import java.util.Optional;

/**
 * Where the writer's parquet goes: one PutObject per file, with static keys or the AWS SDK's default credential chain
 * (in Kubernetes, the ServiceAccount's web identity), an optional endpoint (MinIO and the like, path-style) and
 * region. Checksums only where S3 requires them, so S3-compatible stores that predate the SDK's default accept it.
 */
public final class HoglakeObjectStore implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(HoglakeObjectStore.class.getName());

    private final S3Client client;
    private final String credentialSource;

    private HoglakeObjectStore(S3Client client, String credentialSource) {
        this.client = client;
        this.credentialSource = credentialSource;
    }

    /** @throws ObjectStoreProbeException when no client can be built (no region anywhere, for one) */
    public static HoglakeObjectStore open(HoglakeS3 settings) {
        AwsCredentialsProvider credentials = settings.staticKeys()
                .<AwsCredentialsProvider>map(k -> StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(k.accessKey(), k.secretKey().reveal())))
                .orElseGet(() -> DefaultCredentialsProvider.builder().build());
        S3ClientBuilder builder = S3Client.builder()
                .credentialsProvider(credentials)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        settings.region().ifPresent(r -> builder.region(Region.of(r)));
        settings.endpoint().ifPresent(e -> builder.endpointOverride(endpointUri(e)).forcePathStyle(true));
        try {
            return new HoglakeObjectStore(builder.build(), settings.credentialSource());
        } catch (SdkException e) {
            throw new ObjectStoreProbeException("Cannot build the S3 client for the hoglake write path ("
                    + settings.credentialSource() + "): " + e.getMessage()
                    + " — set HOGLAKE_S3_REGION (or the pod's AWS_REGION)", e);
        }
    }

    /** An endpoint without a scheme ({@code minio:9000}) means https, as other S3 clients read it. */
    static URI endpointUri(String endpoint) {
        return URI.create(endpoint.contains("://") ? endpoint : "https://" + endpoint);
    }

    public String credentialSource() {
        return credentialSource;
    }

    /** Uploads one object; an {@link SdkException} propagates (the caller classifies it as a transport failure). */
    public void put(String uri, byte[] bytes) {
        ObjectUri target = ObjectUri.parse(uri);
        client.putObject(PutObjectRequest.builder().bucket(target.bucket()).key(target.key())
                .contentLength((long) bytes.length).build(), RequestBody.fromBytes(bytes));
    }

    /**
     * The startup credential probe: a zero-byte marker at {@code <data_path>/_millpond/probe}, written with the same
     * call the flush path uploads with, so it proves the grant the writer uses (never ListBucket) and cannot pass on a
     * bucket that does not exist. Not retried: a missing grant is configuration and does not heal by waiting.
     *
     * @throws ObjectStoreProbeException naming the marker, the catalog, the credential source, the SDK's error and the
     *                                   setting to look at
     */
    public void probe(String dataPath, String catalog) {
        String marker = ObjectUri.probeMarker(dataPath);
        try {
            put(marker, new byte[0]);
        } catch (SdkException e) {
            String code = e instanceof S3Exception s3 && s3.awsErrorDetails() != null
                    ? Optional.ofNullable(s3.awsErrorDetails().errorCode()).orElse("") : "";
            throw new ObjectStoreProbeException("S3 credential probe failed: cannot write " + marker + " for hoglake"
                    + " catalog '" + catalog + "' using " + credentialSource + ": "
                    + (code.isEmpty() ? "" : code + ": ") + e.getMessage() + " — " + hint(code), e);
        }
        LOG.log(System.Logger.Level.INFO, "S3 credential probe passed: wrote {0} using {1}", marker, credentialSource);
    }

    /** The setting an operator should look at, by the S3 error code. */
    static String hint(String code) {
        return switch (code) {
            case "NoSuchBucket" -> "check the bucket in the catalog's data_path (HOGLAKE_DATA_PATH when millpond"
                    + " created the catalog)";
            case "AuthorizationHeaderMalformed", "PermanentRedirect" -> "check HOGLAKE_S3_REGION (or the pod's"
                    + " AWS_REGION under the default credential chain): the bucket is in another region";
            case "InvalidAccessKeyId", "SignatureDoesNotMatch" -> "check the static keys HOGLAKE_S3_ACCESS_KEY /"
                    + " HOGLAKE_S3_SECRET_KEY";
            case "AccessDenied" -> "grant s3:PutObject (and s3:AbortMultipartUpload) under the data path to these"
                    + " credentials";
            default -> "check HOGLAKE_S3_ENDPOINT, HOGLAKE_S3_REGION and the credentials";
        };
    }

    @Override
    public void close() {
        client.close();
    }
}
