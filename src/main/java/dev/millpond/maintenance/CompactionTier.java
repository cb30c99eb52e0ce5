package dev.millpond.maintenance;

import java.util.Arrays;
import java.util.OptionalLong;

/**
 * The size bands of tiered compaction: small files merge often into medium ones, medium ones less often into large
 * ones. Each band is [min, max) bytes of a live data file; the target is what DuckLake's {@code target_file_size} is
 * set to while the band merges.
 */
public enum CompactionTier {
    ONE(1, 0, 1L << 20, "5MiB"),
    TWO(2, 1L << 20, 10L << 20, "32MiB"),
    THREE(3, 10L << 20, 64L << 20, "128MiB");

    private final int number;
    private final long minBytes;
    private final long maxBytes;
    private final String target;

    CompactionTier(int number, long minBytes, long maxBytes, String target) {
        this.number = number;
        this.minBytes = minBytes;
        this.maxBytes = maxBytes;
        this.target = target;
    }

    public static CompactionTier of(int number) {
        return Arrays.stream(values()).filter(t -> t.number == number).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("tier must be 1, 2 or 3, got " + number));
    }

    public int number() {
        return number;
    }

    /** Inclusive lower bound; empty for tier 1, whose band starts at 0. */
    public OptionalLong minBytes() {
        return minBytes == 0 ? OptionalLong.empty() : OptionalLong.of(minBytes);
    }

    /** Exclusive upper bound. */
    public long maxBytes() {
        return maxBytes;
    }

    public String target() {
        return target;
    }

    /** Whether a file of this size is in the band. */
    public boolean contains(long bytes) {
        return bytes >= minBytes && bytes < maxBytes;
    }
}
