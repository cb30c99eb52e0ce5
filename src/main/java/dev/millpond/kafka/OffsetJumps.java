package dev.millpond.kafka;

import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.OffsetSkipReason;
import org.jboss.logging.Logger;

/**
 * Where a jump over offsets the pipeline never landed becomes visible, at startup and while running alike: one
 * warning per partition naming the first missing offset and the new position, and the offsets jumped added to
 * {@code millpond_offsets_skipped_total{partition,reason="out_of_range"}}. Without it the Kafka client resets by
 * itself and says so only at INFO, and nothing an alert can see moves.
 */
public final class OffsetJumps {

    private static final Logger LOG = Logger.getLogger(OffsetJumps.class);

    private final MillpondMetrics metrics;

    public OffsetJumps(MillpondMetrics metrics) {
        this.metrics = metrics;
    }

    /** The partition's series exists from now on, at 0 until a jump. */
    public void track(int partition) {
        metrics.offsetsSkipped(partition, OffsetSkipReason.OUT_OF_RANGE, 0);
    }

    public void jumped(OffsetJump jump) {
        LOG.warn(jump.describe());
        metrics.offsetsSkipped(jump.partition(), OffsetSkipReason.OUT_OF_RANGE, jump.skipped());
    }
}
