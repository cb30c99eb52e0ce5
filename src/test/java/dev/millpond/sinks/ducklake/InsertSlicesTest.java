package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.FlushBatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** How a flush is cut into INSERTs, over random flushes of batches of random widths. */
class InsertSlicesTest {

    private final BufferAllocator allocator = new RootAllocator();
    private final List<VectorSchemaRoot> owned = new ArrayList<>();

    @AfterEach
    void close() {
        owned.forEach(VectorSchemaRoot::close);
        allocator.close();
    }

    @Test
    void slicesKeepEveryBatchInOrderWithinTheBoundAndCutOnlyWideRows() {
        for (long seed = 1; seed <= 300; seed++) {
            Random random = new Random(seed);
            FlushBatch flush = flush(random);
            long rowGroupRows = 1 + random.nextInt(64);
            long sliceBytes = 256 + random.nextInt(64 * 1024);
            List<FlushBatch> slices = InsertSlices.of(flush, rowGroupRows, sliceBytes);

            List<VectorSchemaRoot> again = slices.stream().flatMap(s -> s.batches().stream()).toList();
            assertThat(again).as("seed %d: every batch once, in order", seed).containsExactlyElementsOf(flush.batches());
            long total = 0;
            for (FlushBatch s : slices) {
                long bytes = s.batches().stream().mapToLong(InsertSlices::bufferBytes).sum();
                assertThat(s.rows()).isEqualTo(s.batches().stream().mapToLong(VectorSchemaRoot::getRowCount).sum());
                if (slices.size() > 1) {
                    assertThat(s.ranges()).as("offsets are written once, beside the slices").isEmpty();
                    assertThat(bytes <= sliceBytes || s.batches().size() == 1).as("seed %d: %d bytes", seed, bytes)
                            .isTrue();
                }
                total += bytes;
            }
            double rowGroup = (double) total / flush.rows() * Math.min(rowGroupRows, flush.rows());
            assertThat(slices.size() > 1).as("seed %d: cut exactly when a row group outgrows the bound", seed)
                    .isEqualTo(rowGroup > sliceBytes && flush.batches().size() > 1);
            if (slices.size() == 1) {
                assertThat(slices.get(0)).isSameAs(flush);
            }
        }
    }

    private FlushBatch flush(Random random) {
        int batches = 1 + random.nextInt(8);
        List<VectorSchemaRoot> roots = new ArrayList<>();
        long rows = 0;
        for (int b = 0; b < batches; b++) {
            VarCharVector text = new VarCharVector("payload", allocator);
            int n = 1 + random.nextInt(50);
            text.allocateNew();
            for (int r = 0; r < n; r++) {
                text.setSafe(r, "y".repeat(random.nextInt(3_000)).getBytes(StandardCharsets.US_ASCII));
            }
            text.setValueCount(n);
            VectorSchemaRoot root = VectorSchemaRoot.of(text);
            root.setRowCount(n);
            owned.add(root);
            roots.add(root);
            rows += n;
        }
        return new FlushBatch(roots.get(0).getSchema(), roots, rows, List.of(new dev.millpond.sinks.OffsetRange("t", 0, 0,
                rows - 1)));
    }
}
