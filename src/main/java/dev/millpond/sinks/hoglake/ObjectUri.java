package dev.millpond.sinks.hoglake;

import java.util.UUID;

/** An {@code s3://bucket/key} object URI, and the names the writer gives its objects. */
public record ObjectUri(String bucket, String key) {

    public static ObjectUri parse(String uri) {
        if (!uri.startsWith("s3://")) {
            throw new IllegalArgumentException("not an s3:// URI: " + uri);
        }
        String rest = uri.substring("s3://".length());
        int slash = rest.indexOf('/');
        if (slash <= 0 || slash == rest.length() - 1) {
            throw new IllegalArgumentException("an s3:// object URI needs a bucket and a key: " + uri);
        }
        return new ObjectUri(rest.substring(0, slash), rest.substring(slash + 1));
    }

    /**
     * {@code {data_path}/data/{namespace}/{table}/{idempotency_key}/{uuid4}-{index}.parquet}. A retry under the same key
     * writes fresh names beside the old ones, so orphans are deleted by URI, never by sweeping the key's prefix.
     */
    public static String dataFile(String dataPath, String namespace, String table, UUID idempotencyKey, int index) {
        return stripSlashes(dataPath) + "/data/" + namespace + "/" + table + "/" + idempotencyKey + "/"
                + UUID.randomUUID() + "-" + index + ".parquet";
    }

    /** The fixed marker the startup probe overwrites on every boot: at most one object per data path. */
    public static String probeMarker(String dataPath) {
        return stripSlashes(dataPath) + "/_millpond/probe";
    }

    private static String stripSlashes(String s) {
        return s.replaceAll("/+$", "");
    }

    @Override
    public String toString() {
        return "s3://" + bucket + "/" + key;
    }
}
