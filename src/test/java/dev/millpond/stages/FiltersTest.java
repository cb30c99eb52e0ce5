package dev.millpond.stages;

import static dev.millpond.stages.Batches.col;
import static dev.millpond.stages.Batches.counter;
import static dev.millpond.stages.Batches.root;
import static dev.millpond.stages.Batches.values;
import static org.assertj.core.api.Assertions.assertThat;

import dev.millpond.config.FilterSpec;
import dev.millpond.config.FilterValues;
import dev.millpond.config.PinnedType;
import dev.millpond.config.RecordHandlingConfig;
import dev.millpond.observability.MillpondMetrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Keep and drop filters: every direction, skip reason and failure mode. */
class FiltersTest {
    static final String A = "0123abcd-4567-89ab-cdef-0123456789ab";
    static final String B = "ffffffff-4567-89ab-cdef-0123456789ab";

    private final RootAllocator allocator = new RootAllocator();
    private final MillpondMetrics metrics = Batches.metrics();

    @AfterEach
    void allocatorIsEmpty() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    private static FilterValues ints(Long... v) {
        return new FilterValues.Ints(List.of(v));
    }

    private static FilterValues strings(String... v) {
        return new FilterValues.Strings(List.of(v));
    }

    private double skipped(String reason) {
        return counter(metrics, "millpond.records.skipped", "reason", reason);
    }

    private List<Object> keep(FilterValues values, Batches.Column... columns) {
        return run(RecordHandlingConfig.disabled().withKeep(new FilterSpec("team_id", values)), columns);
    }

    private List<Object> run(RecordHandlingConfig config, Batches.Column... columns) {
        RecordStages stages = new RecordStages(config, metrics, allocator);
        try (VectorSchemaRoot out = stages.applyPerPollBatch(root(allocator, columns))) {
            return values(out, "row");
        }
    }

    private static Batches.Column rows(int n) {
        Object[] v = new Object[n];
        for (int i = 0; i < n; i++) {
            v[i] = (long) i;
        }
        return col("row", Long.class, v);
    }

    @Test
    void keepIntsOnIntColumn() {
        assertThat(keep(ints(2L, 4L), rows(5), col("team_id", Long.class, 2L, 3L, null, 4L, 2L)))
                .containsExactly(0L, 3L, 4L);
        assertThat(skipped("filter_excluded")).isEqualTo(1);
        assertThat(skipped("filter_field_missing")).isEqualTo(1);
        assertThat(counter(metrics, "millpond.filter.matched", "value", "2")).isEqualTo(2);
        assertThat(counter(metrics, "millpond.filter.matched", "value", "4")).isEqualTo(1);
    }

    @Test
    void keepStringsOnStringColumn() {
        assertThat(keep(strings("a", "b"), rows(3), col("team_id", String.class, "a", "c", "b")))
                .containsExactly(0L, 2L);
        assertThat(skipped("filter_excluded")).isEqualTo(1);
    }

    @Test
    void keepIntsOnStringColumnComparesDecimalText() {
        assertThat(keep(ints(42L), rows(3), col("team_id", String.class, "42", "042", "x"))).containsExactly(0L);
        assertThat(skipped("filter_excluded")).isEqualTo(2);
    }

    @Test
    void keepStringsOnIntColumnFailsClosed() {
        assertThat(keep(strings("a", "2"), rows(2), col("team_id", Long.class, 2L, 3L))).isEmpty();
        assertThat(skipped("filter_field_missing")).isEqualTo(2);
    }

    @Test
    void keepOnMissingColumnDropsAllAsFieldMissing() {
        assertThat(keep(ints(1L), rows(3))).isEmpty();
        assertThat(skipped("filter_field_missing")).isEqualTo(3);
    }

    @Test
    void keepOnUnfilterableTypesDropsAllAsFieldMissing() {
        assertThat(keep(ints(1L), rows(2), col("team_id", Double.class, 1.0, 2.0))).isEmpty();
        assertThat(keep(ints(1L), rows(2), col("team_id", Boolean.class, true, false))).isEmpty();
        assertThat(skipped("filter_field_missing")).isEqualTo(4);
    }

    @Test
    void keepOnUuidColumnComparesBytesAndLabelsCanonically() {
        RecordHandlingConfig config = RecordHandlingConfig.disabled()
                .withTypedColumns(Map.of("team_id", PinnedType.UUID))
                .withKeep(new FilterSpec("team_id", strings(A.toUpperCase(), "not-a-uuid")));
        assertThat(run(config, rows(3), col("team_id", String.class, "{" + A + "}", B, null)))
                .containsExactly(0L);
        assertThat(counter(metrics, "millpond.filter.matched", "value", A)).isEqualTo(1);
        assertThat(skipped("filter_excluded")).isEqualTo(1);
        assertThat(skipped("filter_field_missing")).isEqualTo(1);
        // The unparseable value costs one error for the set, not one per batch.
        assertThat(counter(metrics, "millpond.errors", "type", "filter_value_invalid")).isEqualTo(1);
    }

    @Test
    void keepOnUuidColumnWithNoUsableValueDropsAllAsValueInvalid() {
        RecordHandlingConfig config = RecordHandlingConfig.disabled()
                .withTypedColumns(Map.of("team_id", PinnedType.UUID))
                .withKeep(new FilterSpec("team_id", strings("nope")));
        assertThat(run(config, rows(2), col("team_id", String.class, A, B))).isEmpty();
        assertThat(skipped("filter_value_invalid")).isEqualTo(2);
        assertThat(skipped("filter_field_missing")).isZero();
    }

    @Test
    void keepReadsTheCurrentSnapshotEveryBatch() {
        AtomicReference<FilterValues> published = new AtomicReference<>(ints(1L));
        RecordHandlingConfig config = RecordHandlingConfig.disabled().withKeep(new FilterSpec("team_id", ints(1L)));
        RecordStages stages = new RecordStages(config, published::get, metrics, allocator);
        try (VectorSchemaRoot out = stages.applyPerPollBatch(root(allocator, col("team_id", Long.class, 1L, 2L)))) {
            assertThat(values(out, "team_id")).containsExactly(1L);
        }
        published.set(ints(2L));
        try (VectorSchemaRoot out = stages.applyPerPollBatch(root(allocator, col("team_id", Long.class, 1L, 2L)))) {
            assertThat(values(out, "team_id")).containsExactly(2L);
        }
    }

    @Test
    void keepWithEveryRowMatchingReturnsTheSameBatch() {
        RecordStages stages = new RecordStages(
                RecordHandlingConfig.disabled().withKeep(new FilterSpec("team_id", ints(1L))), metrics, allocator);
        VectorSchemaRoot in = root(allocator, col("team_id", Long.class, 1L, 1L));
        try (VectorSchemaRoot out = stages.applyPerPollBatch(in)) {
            assertThat(out).isSameAs(in);
        }
    }

    private List<Object> drop(FilterValues values, Batches.Column... columns) {
        return run(RecordHandlingConfig.disabled().withDrop(new FilterSpec("team_id", values)), columns);
    }

    @Test
    void dropRemovesMembersAndKeepsNulls() {
        assertThat(drop(ints(2L), rows(4), col("team_id", Long.class, 2L, 3L, null, 2L))).containsExactly(1L, 2L);
        assertThat(skipped("filter_dropped")).isEqualTo(2);
    }

    @Test
    void dropFailsOpen() {
        assertThat(drop(ints(2L), rows(2))).containsExactly(0L, 1L);                                  // missing
        assertThat(drop(ints(2L), rows(2), col("team_id", Double.class, 2.0, 3.0))).hasSize(2);        // type
        assertThat(drop(strings("x", "2"), rows(2), col("team_id", Long.class, 2L, 3L))).hasSize(2);   // cast
        assertThat(skipped("filter_dropped")).isZero();
    }

    @Test
    void dropOnUuidColumnWithNoUsableValueDeniesNothing() {
        RecordHandlingConfig config = RecordHandlingConfig.disabled()
                .withTypedColumns(Map.of("team_id", PinnedType.UUID))
                .withDrop(new FilterSpec("team_id", strings("nope")));
        assertThat(run(config, rows(2), col("team_id", String.class, A, B))).hasSize(2);
        assertThat(counter(metrics, "millpond.errors", "type", "filter_value_invalid")).isEqualTo(1);
    }

    @Test
    void keepThenDropComposeAsKeepMinusDrop() {
        RecordHandlingConfig config = RecordHandlingConfig.disabled()
                .withKeep(new FilterSpec("team_id", ints(1L, 2L, 3L)))
                .withDrop(new FilterSpec("team_id", ints(2L)));
        assertThat(run(config, rows(4), col("team_id", Long.class, 1L, 2L, 3L, 4L))).containsExactly(0L, 2L);
        assertThat(skipped("filter_excluded")).isEqualTo(1);
        assertThat(skipped("filter_dropped")).isEqualTo(1);
    }

    @Test
    void emptyBatchPassesThrough() {
        assertThat(keep(ints(1L), rows(0), col("team_id", Long.class))).isEmpty();
    }
}
