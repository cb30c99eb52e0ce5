package dev.millpond.convert;

import java.nio.charset.StandardCharsets;
import org.jboss.logging.Logger;

/**
 * The WARN line for a skipped value: at most one per second (the rest counted into the next line). By default it
 * carries no byte of the payload — not in a preview, not in the parser's message (which quotes the offending token) —
 * because log lines travel further than the lake (the OTLP export ships them to a logs backend) and payloads carry
 * personal data; the record itself is kept whole in the rejects table. With the preview on, the line carries the
 * value's first 200 bytes, control characters escaped so a line stays one line, and the parser's whole message.
 */
final class UnparseableWarnings {
    private static final Logger LOG = Logger.getLogger(JsonToArrow.class);
    private static final int PREVIEW_BYTES = 200;
    private static final long WARN_INTERVAL_NANOS = 1_000_000_000L;

    private final boolean preview;
    private long lastWarnNanos = System.nanoTime() - 2 * WARN_INTERVAL_NANOS;
    private long suppressedWarnings;

    /** @param preview whether the line may carry payload bytes (MILLPOND_LOG_PAYLOAD_PREVIEW) */
    UnparseableWarnings(boolean preview) {
        this.preview = preview;
    }

    void warn(byte[] value, String reason) {
        long now = System.nanoTime();
        if (now - lastWarnNanos < WARN_INTERVAL_NANOS) {
            suppressedWarnings++;
            return;
        }
        lastWarnNanos = now;
        long suppressed = suppressedWarnings;
        suppressedWarnings = 0;
        String why = preview ? reason : withoutPayload(reason);
        String what = preview ? preview(value) : withoutPreview(value);
        if (suppressed == 0) {
            LOG.warnf("Skipping unparseable JSON value (%s): %s", why, what);
        } else {
            LOG.warnf("Skipping unparseable JSON value (%s; %d more since the last warning): %s",
                    why, suppressed, what);
        }
    }

    /**
     * A reason without what the parser quoted from the payload: the converter's own reasons are fixed texts, a
     * parser's is {@code <exception class>: <message>}, and only the class is kept.
     */
    static String withoutPayload(String reason) {
        int colon = reason.indexOf(": ");
        return colon < 0 ? reason : reason.substring(0, colon);
    }

    static String withoutPreview(byte[] value) {
        return (value == null ? 0 : value.length) + " bytes, not logged (the record is kept in the rejects table;"
                + " MILLPOND_LOG_PAYLOAD_PREVIEW=true logs its first " + PREVIEW_BYTES + " bytes)";
    }

    /** The first 200 bytes, decoded leniently, with control characters escaped so a log line stays one line. */
    static String preview(byte[] value) {
        if (value == null) {
            return "null";
        }
        int n = Math.min(value.length, PREVIEW_BYTES);
        String s = new String(value, 0, n, StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                sb.append(String.format("\\x%02x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (value.length > n) {
            sb.append("... (").append(value.length).append(" bytes)");
        }
        return sb.toString();
    }

    static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
