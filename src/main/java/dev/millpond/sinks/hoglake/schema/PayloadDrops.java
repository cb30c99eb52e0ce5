package dev.millpond.sinks.hoglake.schema;

import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import org.jboss.logging.Logger;

/** Counts the payload keys a flush drops: one {@code records_skipped_total{reason}} per field per flush. */
public final class PayloadDrops {

    private static final Logger LOG = Logger.getLogger(PayloadDrops.class);
    /** Longest name quoted in a warning: an unsafe key can be arbitrarily long. */
    private static final int MAX_NAME_CHARS = 160;

    private final MillpondMetrics metrics;

    public PayloadDrops(MillpondMetrics metrics) {
        this.metrics = metrics;
    }

    public void count(PayloadColumns columns) {
        for (PayloadColumns.Dropped d : columns.dropped()) {
            String name = d.name().length() <= MAX_NAME_CHARS ? d.name()
                    : d.name().substring(0, MAX_NAME_CHARS) + "…";
            LOG.warnf("Dropping payload field %s from this flush (%s)", name, d.why());
            if (d.reason().isPresent()) {
                metrics.recordsSkipped(d.reason().get(), 1);
            } else {
                metrics.error(ErrorType.SCHEMA);
            }
        }
    }
}
