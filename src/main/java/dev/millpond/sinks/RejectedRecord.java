package dev.millpond.sinks;

import java.util.ArrayList;
import java.util.List;

/**
 * A Kafka record the pipeline could not land as a row, kept with why, so a sink can store it beside the flush's rows
 * (in the same commit) rather than drop it.
 *
 * @param timestampMs the Kafka record timestamp in epoch milliseconds, negative when the record has none
 * @param reason      a stable label ({@code json_parse}, {@code column_limit}); the same as the skip metric's
 * @param error       the human-readable detail, bounded in length
 * @param value       the value's bytes: all of them, or its first bytes when an operator capped them
 *                    (MILLPOND_REJECTS_MAX_VALUE_BYTES)
 * @param valueLength the value's full length in bytes
 */
public record RejectedRecord(String topic, int partition, long offset, long timestampMs, String reason, String error,
                             byte[] value, int valueLength) {

    /** Longest error text kept; a parser message quoting a huge token must not bloat the table. */
    public static final int MAX_ERROR_CHARS = 1000;

    public static RejectedRecord of(String topic, int partition, long offset, long timestampMs, String reason,
                                    String error, byte[] value, int maxValueBytes) {
        byte[] kept = value.length <= maxValueBytes ? value : java.util.Arrays.copyOf(value, maxValueBytes);
        String detail = printable(error == null ? "" : error.length() <= MAX_ERROR_CHARS ? error
                : error.substring(0, MAX_ERROR_CHARS) + "…");
        return new RejectedRecord(topic, partition, offset, timestampMs, reason, detail, kept, value.length);
    }

    /** Control characters and lone surrogates (a parser may quote them) become U+FFFD, so the text is valid UTF-8. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else if (Character.isSurrogate(c) || Character.isISOControl(c)) {
                out.append('\uFFFD');
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Whether the value was cut at the operator's cap, so {@link #value} is not the whole record. */
    public boolean truncated() {
        return value.length < valueLength;
    }

    /**
     * The rejects cut into runs of at most {@code maxValueBytes} of values each, in order; a larger one alone. A sink
     * copies one run at a time out of the heap (into Arrow, a parquet file), so that copy stays this small whatever
     * the flush holds.
     */
    public static List<List<RejectedRecord>> slices(List<RejectedRecord> rejects,
                                                                      long maxValueBytes) {
        List<List<RejectedRecord>> out = new ArrayList<>();
        int from = 0;
        long bytes = 0;
        for (int i = 0; i < rejects.size(); i++) {
            long size = rejects.get(i).value().length;
            if (i > from && bytes + size > maxValueBytes) {
                out.add(rejects.subList(from, i));
                from = i;
                bytes = 0;
            }
            bytes += size;
        }
        if (from < rejects.size()) {
            out.add(rejects.subList(from, rejects.size()));
        }
        return out;
    }

    /** Heap this record holds, roughly: what the pump counts towards its flush triggers. */
    public long bytes() {
        return value.length + 2L * error.length() + 64;
    }
}
