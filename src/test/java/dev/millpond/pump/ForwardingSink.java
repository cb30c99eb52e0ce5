package dev.millpond.pump;

import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.RecordedOffsets;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.WriteFailure;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A real sink with the pump tests' fault or gate in front of its writes; everything else goes straight through. */
abstract class ForwardingSink implements Sink {

    final Sink real;

    ForwardingSink(Sink real) {
        this.real = real;
    }

    @Override
    public Optional<Map<Integer, Long>> recordedOffsets(String topic) throws Exception {
        return real.recordedOffsets(topic);
    }

    @Override
    public Optional<RecordedOffsets> recordedOffsets(String topic, String topicId) throws Exception {
        return real.recordedOffsets(topic, topicId);
    }

    @Override
    public long write(FlushBatch batch, int attempt) throws Exception {
        return real.write(batch, attempt);
    }

    @Override
    public WriteFailure classify(Throwable failure) {
        return real.classify(failure);
    }

    @Override
    public boolean keepsRejects() {
        return real.keepsRejects();
    }

    @Override
    public List<String> liveColumns() {
        return real.liveColumns();
    }

    @Override
    public java.util.Set<String> columnsRefusingNul() {
        return real.columnsRefusingNul();
    }

    @Override
    public boolean becomesColumn(String name) {
        return real.becomesColumn(name);
    }

    @Override
    public void close() {
        real.close();
    }
}
