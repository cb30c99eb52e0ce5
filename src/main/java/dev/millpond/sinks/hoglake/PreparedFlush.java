package dev.millpond.sinks.hoglake;

import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CommitRequest;

import java.util.List;
import java.util.UUID;

/**
 * One flush uploaded and not yet published: the commit request to send (kept, and sent again unchanged on every
 * retry of the same flush, so a commit whose answer was lost is answered from the server's receipt), the objects it
 * registers, and which flush it is.
 */
final class PreparedFlush {
    private final UUID key;
    private final List<OffsetRange> ranges;
    private final long batchRows;
    private final Object batches;
    private final CommitRequest request;
    private final List<String> uris;
    private final long rows;
    private boolean sent;

    PreparedFlush(UUID key, FlushBatch batch, CommitRequest request, List<String> uris, long rows) {
        this.key = key;
        this.ranges = batch.ranges();
        this.batchRows = batch.rows();
        this.batches = batch.batches();
        this.request = request;
        this.uris = List.copyOf(uris);
        this.rows = rows;
    }

    /**
     * Whether this is the payload of {@code batch} (a retry of the same flush), not of an earlier one: the same offset
     * ranges and rows, or, for a flush that carries no offsets, the very same batches.
     */
    boolean covers(FlushBatch batch) {
        return ranges.equals(batch.ranges()) && batchRows == batch.rows()
                && (!ranges.isEmpty() || batches == batch.batches());
    }

    UUID key() {
        return key;
    }

    CommitRequest request() {
        return request;
    }

    List<String> uris() {
        return uris;
    }

    long rows() {
        return rows;
    }

    /** Whether the request went out before: its outcome may be unknown (a lost answer). */
    boolean sent() {
        return sent;
    }

    void markSent() {
        sent = true;
    }
}
