package dev.millpond.pump;

import dev.millpond.observability.ErrorType;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.WriteFailure;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A sink that keeps nothing but the offset ranges of each flush it accepts, and records no offsets of its own (as
 * hoglake). It can die on its {@code crashAt}-th flush, the way a pod dies: after the lake accepted it (the ranges are
 * recorded) or before (they are not), in both cases without returning, so the pump never commits that flush.
 */
final class RangeRecordingSink implements Sink {

    /** The process died: nothing after it runs, in particular no Kafka commit. */
    static final class SimulatedCrash extends Error {
        SimulatedCrash() {
            super("simulated crash inside the write", null, false, false);
        }
    }

    final List<List<OffsetRange>> accepted = new CopyOnWriteArrayList<>();
    /** Rows accepted per flush, in the order of {@link #accepted}. */
    final List<Long> rows = new CopyOnWriteArrayList<>();
    volatile List<OffsetRange> crashedOn;
    private final int crashAt;
    private final boolean landsBeforeCrash;
    private int flushes;

    /** @param crashAt the flush (1-based) to die on; 0 never dies */
    RangeRecordingSink(int crashAt, boolean landsBeforeCrash) {
        this.crashAt = crashAt;
        this.landsBeforeCrash = landsBeforeCrash;
    }

    static RangeRecordingSink reliable() {
        return new RangeRecordingSink(0, false);
    }

    @Override
    public Optional<Map<Integer, Long>> recordedOffsets(String topic) {
        return Optional.empty();
    }

    @Override
    public long write(FlushBatch batch, int attempt) {
        if (++flushes == crashAt) {
            crashedOn = batch.ranges();
            if (landsBeforeCrash) {
                accepted.add(batch.ranges());
                rows.add(batch.rows());
            }
            throw new SimulatedCrash();
        }
        accepted.add(batch.ranges());
        rows.add(batch.rows());
        return batch.rows();
    }

    @Override
    public WriteFailure classify(Throwable failure) {
        return WriteFailure.retryable(ErrorType.WRITE_RETRY);
    }

    @Override
    public void close() {
    }
}
