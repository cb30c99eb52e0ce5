package dev.millpond.sinks.hoglake;

import dev.millpond.observability.MillpondMetrics;
import org.jboss.logging.Logger;

import java.util.List;

/**
 * Parquet this sink uploaded and no commit registered: billed storage nobody reclaims (hoglake's cleanup only drains
 * what the server queued). Every count comes with one warning naming each object, so an operator can delete exactly
 * those; never the shared {@code …/{idempotency_key}/} prefix, under which a later attempt may have committed files.
 * Uploads are sequential PutObjects, each atomic, so the URIs passed here are exactly the objects in storage.
 */
final class OrphanedFiles {

    private static final Logger LOG = Logger.getLogger(OrphanedFiles.class);
    /** URIs named per warning line; the rest are counted. */
    static final int MAX_URIS_PER_LINE = 20;

    private final MillpondMetrics metrics;

    OrphanedFiles(MillpondMetrics metrics) {
        this.metrics = metrics;
    }

    void count(List<String> uris, String why) {
        if (uris.isEmpty()) {
            return;
        }
        metrics.hoglakeOrphanedFiles(uris.size());
        List<String> named = uris.subList(0, Math.min(uris.size(), MAX_URIS_PER_LINE));
        String more = uris.size() > named.size() ? " (and " + (uris.size() - named.size()) + " more)" : "";
        LOG.warnf("%d uploaded parquet file(s) orphaned (%s): no commit registers them and hoglake will not delete"
                + " them; delete these objects by URI, never their shared prefix: %s%s", uris.size(), why,
                String.join(" ", named), more);
    }
}
