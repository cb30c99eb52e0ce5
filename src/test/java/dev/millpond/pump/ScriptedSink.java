package dev.millpond.pump;

import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.WriteFailure;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;

/**
 * Answers attempt n with the verdict its script gives for n (thrown as a failure the sink then classifies as that
 * verdict), or success, the batch's rows, where the script gives null. Remembers each attempt and the thread that
 * made it. The script runs inside {@link #write}, so it may also block there.
 */
final class ScriptedSink implements Sink {

    final List<Integer> attempts = new CopyOnWriteArrayList<>();
    final List<String> threads = new CopyOnWriteArrayList<>();
    private final IntFunction<WriteFailure> script;

    ScriptedSink(IntFunction<WriteFailure> script) {
        this.script = script;
    }

    ScriptedSink(WriteFailure... script) {
        this(Arrays.asList(script));
    }

    /** Attempt n gets the n-th verdict of the list. */
    ScriptedSink(List<WriteFailure> script) {
        this(attempt -> script.get(attempt - 1));
    }

    @Override
    public Optional<Map<Integer, Long>> recordedOffsets(String topic) {
        return Optional.empty();
    }

    @Override
    public long write(FlushBatch batch, int attempt) throws Exception {
        attempts.add(attempt);
        threads.add(Thread.currentThread().getName());
        WriteFailure verdict = script.apply(attempt);
        if (verdict == null) {
            return batch.rows();
        }
        throw new ScriptedFailure(verdict);
    }

    @Override
    public WriteFailure classify(Throwable failure) {
        return ((ScriptedFailure) failure).verdict;
    }

    @Override
    public void close() {
    }

    private static final class ScriptedFailure extends Exception {
        final WriteFailure verdict;

        ScriptedFailure(WriteFailure verdict) {
            super(verdict.kind() + " " + verdict.errorType().label());
            this.verdict = verdict;
        }
    }
}
