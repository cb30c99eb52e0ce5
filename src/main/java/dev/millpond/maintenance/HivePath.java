package dev.millpond.maintenance;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The Hive-style {@code key=value} directory segments of a data file's path, as DuckLake writes them for a
 * partitioned table ({@code year=2026/month=11/region=eu%20west/ducklake-….parquet}): keys lower-cased, values
 * percent-decoded. A key that appears twice takes its last (innermost) value.
 */
record HivePath(Map<String, String> segments) {

    /** Hive's directory name for a NULL partition value: no value can be read from it. */
    static final String NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__";

    static HivePath of(String path) {
        Map<String, String> segments = new LinkedHashMap<>();
        String[] parts = path.split("/");
        // The last part is the file name, never a partition directory.
        for (int i = 0; i < parts.length - 1; i++) {
            int eq = parts[i].indexOf('=');
            if (eq > 0) {
                String key = parts[i].substring(0, eq).toLowerCase(Locale.ROOT);
                segments.remove(key);
                segments.put(key, parts[i].substring(eq + 1));
            }
        }
        return new HivePath(segments);
    }

    /** The decoded value of {@code key} (case-insensitive), or null when the path has no usable segment for it. */
    String value(String key) {
        String raw = segments.get(key.toLowerCase(Locale.ROOT));
        if (raw == null || raw.equals(NULL_PARTITION)) {
            return null;
        }
        return percentDecode(raw);
    }

    /**
     * Decodes {@code %XX} escapes as UTF-8 and nothing else. Hand-written because {@link java.net.URLDecoder} decodes
     * form encoding, where {@code +} means a space, while a {@code +} in a partition directory is a literal plus.
     * A malformed escape is kept as it is.
     */
    static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        byte[] raw = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == '%' && i + 2 < raw.length) {
                int hi = Character.digit(raw[i + 1], 16);
                int lo = Character.digit(raw[i + 2], 16);
                if (hi >= 0 && lo >= 0) {
                    bytes.write(hi * 16 + lo);
                    i += 2;
                    continue;
                }
            }
            bytes.write(raw[i]);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
