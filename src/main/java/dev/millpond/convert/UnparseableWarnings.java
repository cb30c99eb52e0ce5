package dev.millpond.convert;

import java.nio.charset.StandardCharsets;
import org.jboss.logging.Logger;

/**
 * The WARN line for a skipped value: at most one per second (the rest counted into the next line), with the value's
 * first 200 bytes, control characters escaped so a line stays one line.
 */
final class UnparseableWarnings {
    private static final Logger LOG = Logger.getLogger(JsonToArrow.class);
    private static final int PREVIEW_BYTES = 200;
    private static final long WARN_INTERVAL_NANOS = 1_000_000_000L;

    private long lastWarnNanos = System.nanoTime() - 2 * WARN_INTERVAL_NANOS;
    private long suppressedWarnings;

    void warn(byte[] value, String reason) {
        long now = System.nanoTime();
        if (now - lastWarnNanos < WARN_INTERVAL_NANOS) {
            suppressedWarnings++;
            return;
        }
        lastWarnNanos = now;
        long suppressed = suppressedWarnings;
        suppressedWarnings = 0;
        if (suppressed == 0) {
            LOG.warnf("Skipping unparseable JSON value (%s): %s", reason, preview(value));
        } else {
            LOG.warnf("Skipping unparseable JSON value (%s; %d more since the last warning): %s",
                    reason, suppressed, preview(value));
        }
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
