package dev.millpond.stages;

import static dev.millpond.stages.Batches.col;
import static dev.millpond.stages.Batches.counter;
import static dev.millpond.stages.Batches.root;
import static dev.millpond.stages.Batches.values;
import static org.assertj.core.api.Assertions.assertThat;

import dev.millpond.config.PinnedType;
import dev.millpond.config.RecordHandlingConfig;
import dev.millpond.observability.MillpondMetrics;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PreWriteSortTest {
    private final RootAllocator allocator = new RootAllocator();
    private final MillpondMetrics metrics = Batches.metrics();

    @AfterEach
    void allocatorIsEmpty() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    private RecordStages sortBy(String... keys) {
        return new RecordStages(RecordHandlingConfig.disabled().withSortBy(List.of(keys)), metrics, allocator);
    }

    @Test
    void sortsAcrossBatchesByTwoKeysStableWithNullsLast() {
        try (VectorSchemaRoot a = root(allocator, col("team", Long.class, 2L, null, 1L),
                col("ts", String.class, "b", "a", "b"), col("row", Long.class, 0L, 1L, 2L));
             VectorSchemaRoot empty = root(allocator, col("team", Long.class), col("ts", String.class),
                     col("row", Long.class));
             VectorSchemaRoot b = root(allocator, col("team", Long.class, 1L, 2L, 1L),
                     col("ts", String.class, "a", null, "b"), col("row", Long.class, 3L, 4L, 5L))) {
            Optional<VectorSchemaRoot> sorted = sortBy("team", "ts").sortForWrite(List.of(a, empty, b));
            assertThat(sorted).isPresent();
            try (VectorSchemaRoot out = sorted.get()) {
                assertThat(values(out, "row")).containsExactly(3L, 2L, 5L, 0L, 4L, 1L);
            }
        }
    }

    @Test
    void uuidSortsByItsBytes() {
        RecordStages stages = new RecordStages(RecordHandlingConfig.disabled()
                .withTypedColumns(Map.of("id", PinnedType.UUID)).withSortBy(List.of("id")), metrics, allocator);
        String low = "0fffffff-0000-0000-0000-000000000000";
        String high = "f0000000-0000-0000-0000-000000000000";
        try (VectorSchemaRoot batch = stages.applyPerPollBatch(root(allocator, col("id", String.class, high, low)));
             VectorSchemaRoot out = stages.sortForWrite(List.of(batch)).orElseThrow()) {
            assertThat(values(out, "id")).containsExactly(low, high);
        }
    }

    @Test
    void missingKeySkipsTheSortAndCountsRecords() {
        try (VectorSchemaRoot a = root(allocator, col("team", Long.class, 2L, 1L))) {
            assertThat(sortBy("team", "nope").sortForWrite(List.of(a))).isEmpty();
            assertThat(sortBy("team", "nope").sortForWrite(List.of(a))).isEmpty();
        }
        assertThat(counter(metrics, "millpond.sort.skipped", "reason", "field_missing")).isEqualTo(4);
    }

    @Test
    void unsortableKeyTypeSkipsTheSort() {
        ListVector list = ListVector.empty("tags", allocator);
        list.allocateNew();
        list.setValueCount(2);
        try (VectorSchemaRoot a = new VectorSchemaRoot(List.of(list))) {
            a.setRowCount(2);
            assertThat(sortBy("tags").sortForWrite(List.of(a))).isEmpty();
        }
        assertThat(counter(metrics, "millpond.sort.skipped", "reason", "unsortable_type")).isEqualTo(2);
    }

    @Test
    void disabledSortCostsNothing() {
        RecordStages stages = new RecordStages(RecordHandlingConfig.disabled(), metrics, allocator);
        assertThat(stages.isNoop()).isTrue();
        try (VectorSchemaRoot a = root(allocator, col("team", Long.class, 2L, 1L))) {
            assertThat(stages.sortForWrite(List.of(a))).isEmpty();
            assertThat(stages.applyPerPollBatch(a)).isSameAs(a);
        }
    }
}
