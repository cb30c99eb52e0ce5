package dev.millpond.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.io.IOException;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

@ServiceBacked
class S3ServerTest {

    private final S3Server s3 = Services.s3();

    @Test
    void objectsArePutListedReadAndStoredAsFiles() throws IOException {
        String bucket = Services.uniqueName("s3smoke");
        s3.createBucket(bucket);
        s3.client().putObject(b -> b.bucket(bucket).key("data/a.txt"), RequestBody.fromString("alpha"));
        s3.client().putObject(b -> b.bucket(bucket).key("data/b/c.txt"), RequestBody.fromString("gamma"));
        s3.client().putObject(b -> b.bucket(bucket).key("other.txt"), RequestBody.fromString("x"));

        assertThat(s3.listKeys(bucket, "data/")).containsExactly("data/a.txt", "data/b/c.txt");
        assertThat(s3.client().getObjectAsBytes(b -> b.bucket(bucket).key("data/b/c.txt")).asUtf8String())
                .isEqualTo("gamma");
        assertThat(Files.readString(s3.dataDirectory().resolve(bucket).resolve("data/a.txt"), StandardCharsets.UTF_8))
                .isEqualTo("alpha");
        assertThat(s3.endpointUrl().toString()).isEqualTo("http://" + s3.endpoint()).startsWith("http://127.0.0.1:");
    }

    @Test
    void requestsSignedWithOtherCredentialsAreRejected() {
        String bucket = Services.uniqueName("s3auth");
        s3.createBucket(bucket);
        try (S3Client stranger = S3Client.builder()
                .endpointOverride(s3.endpointUrl())
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("someone", "else")))
                .build()) {
            assertThatThrownBy(() -> stranger.listObjectsV2(b -> b.bucket(bucket)))
                    .isInstanceOf(S3Exception.class)
                    .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(403));
        }
    }
}
