package dev.millpond.sinks.ducklake;

import dev.millpond.convert.BatchUnifier;
import dev.millpond.convert.ConvertedBatch;
import dev.millpond.convert.JsonToArrow;
import dev.millpond.convert.UnifiedBatches;
import dev.millpond.sinks.FlushBatch;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reader DuckDB scans a flush through: every batch in order, through the Arrow C stream interface, as often as a
 * write's retries and slices need, without taking the batches from the flush's owner and without leaking.
 */
class FlushBatchReaderTest {

    private BufferAllocator allocator;
    private UnifiedBatches unified;
    private FlushBatch flush;

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator();
        JsonToArrow converter = new JsonToArrow(allocator);
        List<VectorSchemaRoot> roots = new ArrayList<>();
        for (String[] poll : new String[][]{{"{\"a\":1,\"s\":\"é\"}"}, {"{\"a\":\"t\"}", "{\"s\":null}"}, {"{\"a\":3}"}}) {
            ConvertedBatch b = converter.convert(Arrays.stream(poll).map(j -> j.getBytes(StandardCharsets.UTF_8))
                    .toList());
            assertThat(b.failed()).isZero();
            roots.add(b.root());
        }
        unified = new BatchUnifier(allocator).unify(roots);
        flush = new FlushBatch(unified.schema(), unified.batches(), unified.rowCount());
    }

    @AfterEach
    void tearDown() {
        unified.close();
        assertThat(allocator.getAllocatedMemory()).as("leaked Arrow memory").isZero();
        allocator.close();
    }

    @Test
    void yieldsEveryBatchInOrderAndLeavesThemToTheirOwner() throws Exception {
        for (int scan = 0; scan < 2; scan++) { // a retry scans the same flush again
            List<Object> a = new ArrayList<>();
            List<Object> s = new ArrayList<>();
            try (ArrowReader reader = new FlushBatchReader(flush, allocator)) {
                assertThat(reader.getVectorSchemaRoot().getSchema()).isEqualTo(flush.schema());
                while (reader.loadNextBatch()) {
                    a.addAll(values(reader.getVectorSchemaRoot(), "a"));
                    s.addAll(values(reader.getVectorSchemaRoot(), "s"));
                }
            }
            assertThat(a).containsExactly("1", "t", null, "3");
            assertThat(s).containsExactly("é", null, null, null);
            assertThat(flush.batches()).allSatisfy(b -> assertThat(b.getRowCount()).isPositive());
        }
    }

    @Test
    void crossesTheCStreamInterface() throws Exception {
        List<Object> a = new ArrayList<>();
        try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            Data.exportArrayStream(allocator, new FlushBatchReader(flush, allocator), stream);
            try (ArrowReader imported = Data.importArrayStream(allocator, stream)) {
                while (imported.loadNextBatch()) {
                    a.addAll(values(imported.getVectorSchemaRoot(), "a"));
                }
            }
        }
        assertThat(a).containsExactly("1", "t", null, "3");
    }

    @Test
    void closingEarlyLeavesNoBufferBehind() throws Exception {
        try (ArrowReader reader = new FlushBatchReader(flush, allocator)) {
            assertThat(reader.loadNextBatch()).isTrue();
        }
        // tearDown checks that, once the owner closes the batches, nothing is left allocated
    }

    private static List<Object> values(VectorSchemaRoot root, String column) {
        FieldVector v = root.getVector(column);
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < root.getRowCount(); i++) {
            Object o = v.getObject(i);
            out.add(o == null ? null : o.toString());
        }
        return out;
    }
}
