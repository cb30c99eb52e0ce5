package dev.millpond.config;

import org.jboss.logging.Logger;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code OTEL_RESOURCE_ATTRIBUTES}, read as the OpenTelemetry SDKs read it (the Python original's included):
 * comma-separated {@code key=value} pairs, key and value trimmed, the value percent-decoded; a pair without
 * {@code =} or with an empty key is skipped with a warning, and a later pair wins over an earlier one.
 */
final class ResourceAttributesVariable {

    static final String NAME = "OTEL_RESOURCE_ATTRIBUTES";
    private static final Logger LOG = Logger.getLogger(ResourceAttributesVariable.class);

    private ResourceAttributesVariable() {
    }

    static Map<String, String> parse(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null || raw.isBlank()) {
            return out;
        }
        for (String pair : raw.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = eq < 0 ? "" : pair.substring(0, eq).strip();
            if (key.isEmpty()) {
                LOG.warnf("%s: ignoring '%s' (not key=value)", NAME, pair.strip());
                continue;
            }
            out.put(key, decode(pair.substring(eq + 1).strip()));
        }
        return out;
    }

    /** Percent-decoding only: a {@code +} is a plus sign here, not a space as in a form. */
    private static String decode(String value) {
        try {
            return URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return value; // a stray '%': kept as written
        }
    }
}
