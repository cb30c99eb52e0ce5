package dev.millpond.sinks.hoglake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.millpond.config.HoglakeS3;
import dev.millpond.config.Secret;
import dev.millpond.testsupport.S3Server;

import dev.millpond.testsupport.ServiceBacked;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/** Uploads and the startup credential probe against a real S3 server (s3proxy, signed requests, path style). */
@ServiceBacked
class HoglakeObjectStoreTest {

    private static S3Server s3;

    @BeforeAll
    static void start() {
        s3 = S3Server.start();
        s3.createBucket("lake");
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    private static HoglakeS3 settings(String accessKey, String secretKey) {
        return new HoglakeS3(Optional.of(new HoglakeS3.StaticKeys(accessKey, Secret.of(secretKey))),
                Optional.of(s3.endpointUrl().toString()), Optional.of(s3.region()));
    }

    private static HoglakeObjectStore store() {
        return HoglakeObjectStore.open(settings(s3.accessKeyId(), s3.secretAccessKey()));
    }

    private static byte[] read(String uri) {
        ObjectUri o = ObjectUri.parse(uri);
        ResponseBytes<GetObjectResponse> bytes = s3.client().getObjectAsBytes(
                GetObjectRequest.builder().bucket(o.bucket()).key(o.key()).build());
        return bytes.asByteArray();
    }

    @Test
    void uploadsUnderTheContractsObjectNames() {
        UUID key = UUID.fromString("0e0b6c8e-0000-4000-8000-000000000001");
        String uri = ObjectUri.dataFile("s3://lake/prefix/", "analytics", "events", key, 2);
        assertThat(uri).matches("s3://lake/prefix/data/analytics/events/0e0b6c8e-0000-4000-8000-000000000001/"
                + "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-2\\.parquet");
        assertThat(ObjectUri.dataFile("s3://lake/prefix/", "analytics", "events", key, 2)).isNotEqualTo(uri);
        try (HoglakeObjectStore store = store()) {
            store.put(uri, new byte[] {1, 2, 3});
        }
        assertThat(read(uri)).containsExactly(1, 2, 3);
    }

    @Test
    void theProbeWritesOneZeroByteMarkerAndOverwritesItOnEveryBoot() {
        try (HoglakeObjectStore store = store()) {
            store.probe("s3://lake/cat1", "cat1");
            store.probe("s3://lake/cat1/", "cat1");
        }
        assertThat(s3.listKeys("lake", "cat1/_millpond/")).containsExactly("cat1/_millpond/probe");
        assertThat(read("s3://lake/cat1/_millpond/probe")).isEmpty();
    }

    @Test
    void aMissingBucketRefusesWithTheBucketHint() {
        try (HoglakeObjectStore store = store()) {
            assertThatThrownBy(() -> store.probe("s3://no-such-bucket/x", "cat2"))
                    .isInstanceOf(ObjectStoreProbeException.class)
                    .hasMessageContaining("s3://no-such-bucket/x/_millpond/probe")
                    .hasMessageContaining("catalog 'cat2'")
                    .hasMessageContaining("static keys (HOGLAKE_S3_ACCESS_KEY / HOGLAKE_S3_SECRET_KEY)")
                    .hasMessageContaining("NoSuchBucket")
                    .hasMessageContaining("check the bucket");
        }
    }

    @Test
    void badStaticKeysRefuseWithTheKeysHint() {
        try (HoglakeObjectStore wrongKey = HoglakeObjectStore.open(settings("nobody", s3.secretAccessKey()));
             HoglakeObjectStore wrongSecret = HoglakeObjectStore.open(settings(s3.accessKeyId(), "wrong-secret"))) {
            assertThatThrownBy(() -> wrongKey.probe("s3://lake/cat3", "cat3"))
                    .isInstanceOf(ObjectStoreProbeException.class)
                    .hasMessageContaining("InvalidAccessKeyId")
                    .hasMessageContaining("check the static keys HOGLAKE_S3_ACCESS_KEY / HOGLAKE_S3_SECRET_KEY")
                    .hasMessageNotContaining(s3.secretAccessKey());
            assertThatThrownBy(() -> wrongSecret.probe("s3://lake/cat3", "cat3"))
                    .isInstanceOf(ObjectStoreProbeException.class)
                    .hasMessageContaining("SignatureDoesNotMatch")
                    .hasMessageContaining("check the static keys")
                    .hasMessageNotContaining("wrong-secret");
        }
        assertThat(s3.listKeys("lake", "cat3/")).isEmpty();
    }

    @Test
    void objectUrisAndEndpoints() {
        assertThat(ObjectUri.parse("s3://b/k/x.parquet")).isEqualTo(new ObjectUri("b", "k/x.parquet"));
        assertThatThrownBy(() -> ObjectUri.parse("s3://b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ObjectUri.parse("gs://b/k")).isInstanceOf(IllegalArgumentException.class);
        assertThat(ObjectUri.probeMarker("s3://b/p//")).isEqualTo("s3://b/p/_millpond/probe");
        assertThat(HoglakeObjectStore.endpointUri("minio:9000").toString()).isEqualTo("https://minio:9000");
        assertThat(HoglakeObjectStore.endpointUri("http://127.0.0.1:9000").toString()).isEqualTo("http://127.0.0.1:9000");
    }
}
