package dev.millpond.testsupport;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An S3-compatible server (s3proxy) on 127.0.0.1 whose objects are plain files under a temporary
 * directory, so a test can check both what S3 clients see and what landed on disk.
 *
 * <p>Requests must be signed (AWS SigV2 or SigV4) with {@link #accessKeyId()} /
 * {@link #secretAccessKey()}, so a client that forgets its credentials fails here as it would
 * against real S3. Addressing is path-style only ({@code http://127.0.0.1:port/bucket/key}).
 *
 * <p>An instance either owns the server ({@link #start()}) or is attached to one started elsewhere
 * in the JVM ({@link #attach(Map)}).
 */
public final class S3Server implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(S3Server.class.getName());
    private static final String ACCESS_KEY_ID = "millpond-test-access-key";
    private static final String SECRET_ACCESS_KEY = "millpond-test-secret-key";
    private static final String REGION = "us-east-1";

    private static final String PORT = "port";
    private static final String DATA_DIRECTORY = "dataDirectory";

    private final Path dataDirectory;
    /** Null when attached. */
    private final S3Proxy proxy;
    private final int port;
    private S3Client client;

    private S3Server(Path dataDirectory, S3Proxy proxy, int port) {
        this.dataDirectory = dataDirectory;
        this.proxy = proxy;
        this.port = port;
    }

    /** A view of a server started elsewhere in this JVM, from its {@link #coordinates()}. */
    public static S3Server attach(Map<String, String> coordinates) {
        return new S3Server(Path.of(coordinates.get(DATA_DIRECTORY)), null, Integer.parseInt(coordinates.get(PORT)));
    }

    /** What {@link #attach(Map)} needs, as JDK types only so it can cross class loaders. */
    public Map<String, String> coordinates() {
        return Map.of(PORT, String.valueOf(port), DATA_DIRECTORY, dataDirectory.toString());
    }

    public static S3Server start() {
        QuietLogging.apply();
        long started = System.nanoTime();
        Path dataDirectory = TempDirectories.create("s3");
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(new FilesystemNio2BlobStore(dataDirectory.toString()))
                .endpoint(URI.create("http://" + LoopbackPorts.HOST + ":0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY_ID, SECRET_ACCESS_KEY)
                .build();
        try {
            proxy.start();
            awaitStarted(proxy);
        } catch (Exception e) {
            try {
                proxy.stop();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            TempDirectories.deleteRecursively(dataDirectory);
            throw new IllegalStateException("s3proxy did not start", e);
        }
        S3Server server = new S3Server(dataDirectory, proxy, proxy.getPort());
        LOG.log(System.Logger.Level.INFO, "S3 server up at {0} in {1} ms", server.endpointUrl(),
                (System.nanoTime() - started) / 1_000_000);
        return server;
    }

    /** {@link S3Proxy#start()} returns before Jetty reports STARTED. */
    private static void awaitStarted(S3Proxy proxy) {
        Await.within(Duration.ofSeconds(10), "s3proxy STARTED").pollInterval(Duration.ofMillis(10))
                .until(() -> "STARTED".equals(proxy.getState()));
    }

    /** {@code 127.0.0.1:port}: the form DuckDB's {@code s3_endpoint} expects (no scheme). */
    public String endpoint() {
        return LoopbackPorts.HOST + ":" + port;
    }

    /** {@code http://127.0.0.1:port}: the form the AWS SDK's endpoint override expects. */
    public URI endpointUrl() {
        return URI.create("http://" + endpoint());
    }

    public String accessKeyId() {
        return ACCESS_KEY_ID;
    }

    public String secretAccessKey() {
        return SECRET_ACCESS_KEY;
    }

    public String region() {
        return REGION;
    }

    /** Root of the blob store: bucket {@code b}'s object {@code k} is the file {@code <root>/b/k}. */
    public Path dataDirectory() {
        return dataDirectory;
    }

    /** A shared AWS SDK v2 client for this server (path-style, static keys); closed with the server. */
    public synchronized S3Client client() {
        if (client == null) {
            client = S3Client.builder()
                    .endpointOverride(endpointUrl())
                    .region(Region.of(REGION))
                    .credentialsProvider(StaticCredentialsProvider.create(
                            AwsBasicCredentials.create(ACCESS_KEY_ID, SECRET_ACCESS_KEY)))
                    .forcePathStyle(true)
                    // Only send/verify the newer flexible checksums when an operation requires them,
                    // as most S3-compatible stores expect.
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                    .build();
        }
        return client;
    }

    public void createBucket(String bucket) {
        client().createBucket(b -> b.bucket(bucket));
    }

    /** Keys under {@code prefix} in {@code bucket}, sorted, following continuation tokens. */
    public List<String> listKeys(String bucket, String prefix) {
        return client().listObjectsV2Paginator(r -> r.bucket(bucket).prefix(prefix))
                .contents().stream()
                .map(S3Object::key)
                .sorted()
                .toList();
    }

    /** Stops an owned server and deletes its files; an attached view only closes its client. */
    @Override
    public synchronized void close() {
        if (client != null) {
            client.close();
            client = null;
        }
        if (proxy == null) {
            return;
        }
        try {
            proxy.stop();
        } catch (Exception e) {
            throw new IllegalStateException("s3proxy did not stop cleanly", e);
        } finally {
            TempDirectories.deleteRecursively(dataDirectory);
        }
    }
}
