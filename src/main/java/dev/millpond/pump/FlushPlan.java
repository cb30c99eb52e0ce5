package dev.millpond.pump;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One partition's share of a flush, recorded in the Kafka offset commit's metadata before the flush is first written,
 * so that a restarted pod can cut its first flush at exactly the same offsets. A sink that names each publication by
 * its offset ranges (hoglake's idempotency key) then recognises the rebuilt flush instead of publishing it twice.
 *
 * @param partition  the Kafka partition
 * @param first      the first offset of the flush in this partition (also the offset committed with the plan)
 * @param last       the last offset of the flush in this partition, inclusive
 * @param flush      an id shared by every partition of the same flush
 * @param partitions how many partitions the flush covers: a plan found on fewer cannot be replayed exactly
 */
public record FlushPlan(int partition, long first, long last, String flush, int partitions) {

    /** Versioned, so a later layout can be told apart (and ignored by this one). */
    static final String VERSION = "millpond-plan/v1";
    private static final Pattern METADATA = Pattern.compile(
            Pattern.quote(VERSION) + " first=(\\d+) last=(\\d+) flush=([0-9a-f]{1,32})/(\\d+)");

    public FlushPlan {
        if (first < 0 || first > last || partitions < 1) {
            throw new IllegalArgumentException("not a flush plan: first=" + first + " last=" + last
                    + " partitions=" + partitions);
        }
    }

    /** What goes into {@code OffsetAndMetadata.metadata()}, well under the broker's 4 KiB default limit. */
    public String metadata() {
        return VERSION + " first=" + first + " last=" + last + " flush=" + flush + "/" + partitions;
    }

    /** The plan carried by a committed offset's metadata; empty for empty or foreign metadata. */
    public static Optional<FlushPlan> parse(int partition, String metadata) {
        if (metadata == null) {
            return Optional.empty();
        }
        Matcher m = METADATA.matcher(metadata);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new FlushPlan(partition, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                    m.group(3), Integer.parseInt(m.group(4))));
        } catch (IllegalArgumentException e) { // out-of-range numbers: not something this version wrote
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return partition + ":" + first + ".." + last;
    }
}
