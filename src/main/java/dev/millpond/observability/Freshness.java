package dev.millpond.observability;

import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * How late each partition's records land: {@code millpond_freshness_seconds{partition}}, the age (now minus the Kafka
 * record timestamp) of the oldest record of the partition not yet landed, 0 when every record up to the log end has
 * landed; and {@code millpond_last_landed_timestamp_seconds{partition}}, the timestamp of the newest record landed.
 * Landed means in the table (or skipped by design: a tombstone, a filtered-out record) with its offset committed.
 *
 * <p>The pump thread says, once per iteration, what it knows of each partition: the oldest record it holds that has
 * not landed ({@link #held}), or that it holds none and how far the consumer is behind the log end
 * ({@link #nothingHeld}). This keeps the moment the age counts from; the age itself is taken at scrape time, so a pump
 * that stands still (a write that does not return, an outage) shows it growing. The rule, its bound and how to read
 * it are in docs/metrics.md.
 */
public final class Freshness {

    /** No record waits: the partition has landed everything up to the log end as far as the consumer knows. */
    private static final long NOTHING_WAITS = Long.MIN_VALUE;
    /** A moment not seen yet (never caught up, nothing landed). */
    private static final long NEVER = Long.MIN_VALUE;

    private final MillpondMetrics metrics;
    private final LongSupplier epochMillis;
    private final Map<Integer, Partition> partitions = new ConcurrentHashMap<>();

    Freshness(MillpondMetrics metrics, LongSupplier epochMillis) {
        this.metrics = metrics;
        this.epochMillis = epochMillis;
    }

    /**
     * The partition is assigned from now on (at startup, or added to the topic while running): its freshness series
     * exists from here, 0 when nothing is behind; {@code behind}, the records not read yet have no known timestamp,
     * and the age counts from now until the first of them is read.
     */
    public void takenUp(int partition, boolean behind) {
        Partition p = partition(partition);
        long now = epochMillis.getAsLong();
        p.takenUpAt = now;
        if (behind) {
            p.since = now;
        } else {
            p.caughtUp(now);
        }
    }

    /**
     * The pump holds records of the partition that have not landed (read, buffered or being written); the oldest is
     * stamped {@code oldestTimestamp} (Kafka's record timestamp, epoch ms; negative when the record carries none, which
     * counts as a record whose timestamp is not known).
     */
    public void held(int partition, long oldestTimestamp) {
        Partition p = partition(partition);
        if (oldestTimestamp >= 0) {
            p.since = oldestTimestamp;
        } else {
            p.unread();
        }
    }

    /**
     * The pump holds no record of the partition that has not landed.
     *
     * @param lag how far the consumer's position is behind the log end by its latest fetch; empty when the consumer
     *            has not fetched the partition yet (then the previous view holds, unless it was of held records)
     */
    public void nothingHeld(int partition, OptionalLong lag) {
        Partition p = partition(partition);
        if (lag.isEmpty()) {
            if (p.since != NOTHING_WAITS) {
                p.unread();
            } // else still caught up as last seen, but not seen caught up now: the bound stays where it was
        } else if (lag.getAsLong() > 0) {
            p.unread();
        } else {
            p.caughtUp(epochMillis.getAsLong());
        }
    }

    /** The partition's records up to one stamped {@code newestTimestamp} (epoch ms) landed; negative: none known. */
    public void landed(int partition, long newestTimestamp) {
        if (newestTimestamp >= 0) {
            partition(partition).lastLanded = newestTimestamp;
            metrics.lastLandedTimestamp(partition, newestTimestamp / 1000.0);
        }
    }

    /** What {@code millpond_freshness_seconds{partition}} reads now; 0 for a partition never taken up. */
    public double seconds(int partition) {
        Partition p = partitions.get(partition);
        return p == null ? 0 : p.seconds();
    }

    private Partition partition(int partition) {
        return partitions.computeIfAbsent(partition, k -> {
            Partition p = new Partition(epochMillis);
            metrics.freshnessGauge(k, p::seconds);
            return p;
        });
    }

    /** One partition's view; the pump thread writes it, a scrape reads only {@link #since}. */
    private static final class Partition {
        private final LongSupplier epochMillis;
        /** The Kafka timestamp (or moment) the age counts from, or {@link #NOTHING_WAITS}. */
        private volatile long since = NOTHING_WAITS;
        private long takenUpAt;
        private long lastCaughtUp = NEVER;
        private long lastLanded = NEVER;

        Partition(LongSupplier epochMillis) {
            this.epochMillis = epochMillis;
            this.takenUpAt = epochMillis.getAsLong();
        }

        void caughtUp(long now) {
            lastCaughtUp = now;
            since = NOTHING_WAITS;
        }

        /**
         * The oldest record not landed is one the pump has not read, so its timestamp is unknown. If timestamps follow
         * the log (no record stamped earlier than one before it, nor earlier than it was appended), it is no older
         * than the newest landed record, nor than the last moment the partition was seen caught up: the later of the
         * two bounds its age from above. Before either is known (behind at take-up, nothing landed yet) the age counts
         * from the take-up, which can read low until the first of those records is read.
         */
        void unread() {
            long bound = Math.max(lastLanded, lastCaughtUp);
            since = bound == NEVER ? takenUpAt : bound;
        }

        double seconds() {
            long from = since;
            return from == NOTHING_WAITS ? 0 : Math.max(0, epochMillis.getAsLong() - from) / 1000.0;
        }
    }
}
