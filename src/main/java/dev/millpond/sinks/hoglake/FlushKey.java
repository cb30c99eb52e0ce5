package dev.millpond.sinks.hoglake;

import dev.millpond.sinks.OffsetRange;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * The idempotency key of one flush: a name-based UUID (version 5) over the destination table, its incarnation and the
 * complete Kafka offset range the flush covers. The same flush always gets the same key, so a retry is answered from
 * the server's receipt; a recreated table gets a new key, so it can never answer from its predecessor's receipt.
 *
 * <p>The name is {@code {catalog}/{namespace}/{table}}, then {@code incarnation:{table_uuid}}, then one
 * {@code {topic}:{partition}:{first}:{last}} line per range sorted by topic and partition, joined by {@code \n}. A
 * range that knows its topic's Kafka id ends its line with {@code :{topic_id}}: a topic deleted and created again under
 * the same name starts its offsets at 0 again, and without the id its first flushes would be named like the deleted
 * topic's and answered from their receipts ({@code already_published}) instead of published. A range without an id
 * gives the line as before ids were hashed, so a flush planned by that version and rebuilt by this one after a crash
 * gets the key it was first sent under.
 */
public final class FlushKey {

    /** The namespace UUID of millpond's flush keys. */
    static final UUID NAMESPACE = UUID.fromString("6f1b6d2e-4c5a-5f3e-9b7a-2d8c1e0a4f77");

    private FlushKey() {
    }

    public static UUID of(String catalog, String namespace, String table, String tableUuid, List<OffsetRange> ranges) {
        StringBuilder name = new StringBuilder(catalog).append('/').append(namespace).append('/').append(table)
                .append("\nincarnation:").append(tableUuid);
        ranges.stream()
                .sorted(Comparator.comparing(OffsetRange::topic).thenComparingInt(OffsetRange::partition))
                .forEach(r -> {
                    name.append('\n').append(r.topic()).append(':').append(r.partition()).append(':')
                            .append(r.first()).append(':').append(r.last());
                    r.topicId().ifPresent(id -> name.append(':').append(id));
                });
        return uuid5(NAMESPACE, name.toString());
    }

    /**
     * RFC 4122 version 5 (SHA-1, name-based). Hand-written because the JDK only has version 3
     * ({@link UUID#nameUUIDFromBytes}, MD5) and the algorithm is a dozen lines.
     */
    static UUID uuid5(UUID namespace, String name) {
        MessageDigest sha1;
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-1", e);
        }
        sha1.update(ByteBuffer.allocate(16).putLong(namespace.getMostSignificantBits())
                .putLong(namespace.getLeastSignificantBits()).array());
        byte[] h = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
        h[6] = (byte) ((h[6] & 0x0f) | 0x50);
        h[8] = (byte) ((h[8] & 0x3f) | 0x80);
        ByteBuffer b = ByteBuffer.wrap(h, 0, 16);
        return new UUID(b.getLong(), b.getLong());
    }
}
