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
 * @param topicId    the topic id the flush's ranges were named with; empty in a plan of the version before topic ids
 *                   ({@code v1}), whose flush was named by topic name alone and must be again to be recognised
 */
public record FlushPlan(int partition, long first, long last, String flush, int partitions, Optional<String> topicId) {

    /** Versioned, so a later layout can be told apart (and ignored by this one). */
    static final String VERSION = "millpond-plan/v2";
    /** The layout before ranges carried the topic id. */
    static final String VERSION_WITHOUT_TOPIC_ID = "millpond-plan/v1";
    private static final Pattern METADATA = Pattern.compile("millpond-plan/(v1|v2) first=(\\d+) last=(\\d+)"
            + " flush=([0-9a-f]{1,32})/(\\d+)(?: topic=([A-Za-z0-9_-]{1,64}))?");

    public FlushPlan {
        if (first < 0 || first > last || partitions < 1) {
            throw new IllegalArgumentException("not a flush plan: first=" + first + " last=" + last
                    + " partitions=" + partitions);
        }
    }

    FlushPlan(int partition, long first, long last, String flush, int partitions) {
        this(partition, first, last, flush, partitions, Optional.empty());
    }

    /** What goes into {@code OffsetAndMetadata.metadata()}, well under the broker's 4 KiB default limit. */
    public String metadata() {
        return topicId.map(id -> VERSION + " first=" + first + " last=" + last + " flush=" + flush + "/" + partitions
                        + " topic=" + id)
                .orElse(VERSION_WITHOUT_TOPIC_ID + " first=" + first + " last=" + last + " flush=" + flush + "/"
                        + partitions);
    }

    /** The plan carried by a committed offset's metadata; empty for empty or foreign metadata. */
    public static Optional<FlushPlan> parse(int partition, String metadata) {
        if (metadata == null) {
            return Optional.empty();
        }
        Matcher m = METADATA.matcher(metadata);
        // v1 never carries a topic, v2 always does
        if (!m.matches() || m.group(1).equals("v1") == (m.group(6) != null)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new FlushPlan(partition, Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                    m.group(4), Integer.parseInt(m.group(5)), Optional.ofNullable(m.group(6))));
        } catch (IllegalArgumentException e) { // out-of-range numbers: not something this version wrote
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return partition + ":" + first + ".." + last;
    }
}
