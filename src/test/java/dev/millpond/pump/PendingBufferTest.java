package dev.millpond.pump;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The buffer the size trigger reads: its size is the sum of the poll batches' measured bytes (what FLUSH_SIZE is
 * compared with), its allocation what Arrow really holds; a drain hands the batches over, a clear frees them.
 */
class PendingBufferTest {

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void allMemoryReturned() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    void sizeAndRecordsAreTheSumsOfTheBatchesAddedAndTheDrainHandsThemOverInOrder() {
        for (long seed = 0; seed < 100; seed++) {
            Random random = new Random(seed);
            List<VectorSchemaRoot> added = new ArrayList<>();
            long bytes = 0;
            long records = 0;
            try (PendingBuffer buffer = new PendingBuffer()) {
                int batches = random.nextInt(12);
                for (int i = 0; i < batches; i++) {
                    VectorSchemaRoot batch = batch(1 + random.nextInt(2_000));
                    long nbytes = random.nextInt(1 << 20);
                    buffer.add(batch, nbytes);
                    added.add(batch);
                    bytes += nbytes;
                    records += batch.getRowCount();
                    assertThat(buffer.bytes()).as("seed %d", seed).isEqualTo(bytes);
                    assertThat(buffer.records()).isEqualTo(records);
                    assertThat(buffer.allocated()).as("counted from the buffers, within what the allocator holds")
                            .isPositive().isLessThanOrEqualTo(allocator.getAllocatedMemory());
                }
                assertThat(buffer.batches()).containsExactlyElementsOf(added);

                List<VectorSchemaRoot> drained = buffer.drain();

                assertThat(drained).containsExactlyElementsOf(added);
                assertThat(buffer.batches()).isEmpty();
                assertThat(buffer.bytes()).isZero();
                assertThat(buffer.records()).isZero();
                assertThat(buffer.allocated()).isZero();
                assertThat(allocator.getAllocatedMemory() > 0).as("the drained batches are the caller's, still open")
                        .isEqualTo(!added.isEmpty());
                drained.forEach(VectorSchemaRoot::close);
            }
        }
    }

    @Test
    void clearAndCloseFreeTheBatchesStillBuffered() {
        PendingBuffer buffer = new PendingBuffer();
        buffer.add(batch(10), 80);
        buffer.clear();
        assertThat(allocator.getAllocatedMemory()).isZero();
        assertThat(buffer.bytes()).isZero();

        buffer.add(batch(10), 80);
        buffer.add(batch(20), 160);
        buffer.close();
        assertThat(buffer.records()).isZero();
    }

    private VectorSchemaRoot batch(int rows) {
        BigIntVector v = new BigIntVector("n", allocator);
        v.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            v.set(i, i);
        }
        v.setValueCount(rows);
        VectorSchemaRoot root = VectorSchemaRoot.of(v);
        root.setRowCount(rows);
        return root;
    }
}
