package dev.millpond.pump;

import dev.millpond.convert.ConvertedBatch;
import dev.millpond.convert.JsonToArrow;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The width bound on poll batches: what fits stays, records needing a column past the bound are set aside whole. */
class ColumnBudgetTest {

    @Test
    void aRecordNeedingColumnsPastThePerFlushBoundIsSetAsideAndItsColumnsDoNotWidenTheTable() {
        try (BufferAllocator allocator = new RootAllocator()) {
            ColumnBudget budget = new ColumnBudget(100, 5, allocator, name -> true);
            budget.flushed(List.of("seq", "_inserted_at"));
            StringBuilder wide = new StringBuilder("{\"seq\":1");
            for (int i = 0; i < 50; i++) {
                wide.append(",\"w").append(i).append("\":").append(i);
            }
            VectorSchemaRoot root = convert(allocator, "{\"seq\":0,\"a\":\"x\"}", wide.append('}').toString(),
                    "{\"seq\":2}");

            ColumnBudget.Admitted admitted = budget.admit(root);

            assertThat(admitted.rejectedRows()).containsExactly(1);
            assertThat(admitted.firstColumn()).startsWith("w");
            try (VectorSchemaRoot kept = admitted.root()) {
                assertThat(names(kept)).containsExactly("seq", "a");
                assertThat(kept.getRowCount()).isEqualTo(2);
                assertThat(kept.getVector("seq").getObject(1)).isEqualTo(2L);
            }
            // w0..w3 were admitted before the bound was hit, then given back: the next batch may still add 4 more.
            VectorSchemaRoot next = convert(allocator, "{\"b\":1,\"c\":2,\"d\":3,\"e\":4}");
            ColumnBudget.Admitted second = budget.admit(next);
            assertThat(second.rejectedRows()).isEmpty();
            second.root().close();
        }
    }

    @Test
    void theTableBoundCountsLiveColumnsAndAllNullOverflowColumnsAreDroppedWithoutRejecting() {
        try (BufferAllocator allocator = new RootAllocator()) {
            ColumnBudget budget = new ColumnBudget(3, 100, allocator, name -> true);
            budget.flushed(List.of("seq", "_inserted_at"));
            VectorSchemaRoot root = convert(allocator, "{\"seq\":0,\"a\":1}", "{\"seq\":1,\"b\":null}",
                    "{\"seq\":2,\"c\":\"x\"}");

            ColumnBudget.Admitted admitted = budget.admit(root);

            assertThat(admitted.rejectedRows()).containsExactly(2);
            try (VectorSchemaRoot kept = admitted.root()) {
                assertThat(names(kept)).containsExactly("seq", "a");
                assertThat(kept.getRowCount()).isEqualTo(2);
            }
        }
    }

    @Test
    void keysTheSinkDropsByNameNeitherCountNorSetARecordAside() {
        try (BufferAllocator allocator = new RootAllocator()) {
            ColumnBudget budget = new ColumnBudget(100, 1, allocator, name -> !name.startsWith("$"));
            VectorSchemaRoot root = convert(allocator, "{\"$set\":1,\"$os\":\"x\",\"id\":1}");

            ColumnBudget.Admitted admitted = budget.admit(root);

            assertThat(admitted.rejectedRows()).isEmpty();
            assertThat(admitted.root()).isSameAs(root);
            root.close();
        }
    }

    /** Property: for random widths and bounds, kept + set aside = input, and the known width never passes the bound. */
    @Test
    void keptPlusSetAsideIsEveryRowAndTheWidthNeverPassesTheBound() {
        Random random = new Random(11);
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int trial = 0; trial < 200; trial++) {
                int maxTable = 2 + random.nextInt(30);
                int perFlush = 1 + random.nextInt(20);
                ColumnBudget budget = new ColumnBudget(maxTable, perFlush, allocator, name -> true);
                List<String> json = new ArrayList<>();
                int rows = 1 + random.nextInt(20);
                for (int r = 0; r < rows; r++) {
                    StringBuilder b = new StringBuilder("{\"id\":" + r);
                    int keys = random.nextInt(12);
                    for (int k = 0; k < keys; k++) {
                        b.append(",\"K").append(random.nextInt(60)).append("\":").append(k);
                    }
                    json.add(b.append('}').toString());
                }
                ColumnBudget.Admitted admitted = budget.admit(convert(allocator, json.toArray(String[]::new)));
                int kept = admitted.root() == null ? 0 : admitted.root().getRowCount();
                assertThat(kept + admitted.rejectedRows().length).isEqualTo(rows);
                if (admitted.root() != null) {
                    // _inserted_at is counted by the bound but is not a batch column
                    assertThat(admitted.root().getFieldVectors().size() + 1).isLessThanOrEqualTo(Math.max(maxTable, 2));
                    assertThat(admitted.root().getFieldVectors().size() - 1).isLessThanOrEqualTo(perFlush);
                    admitted.root().close();
                }
            }
        }
    }

    /**
     * With overlapped writes the next flush fills while the previous one is written: the previous flush's columns
     * stay known until it landed, the next flush gets its own per-flush allowance at the hand-off, and when the
     * previous flush lands the live table replaces what it admitted without forgetting the next flush's columns.
     */
    @Test
    void aHandOffStartsTheNextFlushsAllowanceAndItsLandingKeepsWhatTheNextFlushAdmitted() {
        try (BufferAllocator allocator = new RootAllocator()) {
            ColumnBudget budget = new ColumnBudget(7, 2, allocator, name -> true);
            budget.flushed(List.of("seq", "_inserted_at"));
            budget.admit(convert(allocator, "{\"seq\":0,\"a\":1,\"b\":2}")).root().close(); // flush N: a, b

            budget.handedOff();                                                    // N is being written
            ColumnBudget.Admitted n1 = budget.admit(convert(allocator, "{\"seq\":1,\"a\":1,\"c\":3}"));
            assertThat(n1.rejectedRows()).as("a is N's, c is N+1's first new column").isEmpty();
            n1.root().close();

            budget.landed(List.of("seq", "_inserted_at", "a", "b"));               // N landed
            ColumnBudget.Admitted more = budget.admit(convert(allocator, "{\"seq\":2,\"c\":1,\"d\":4}",
                    "{\"seq\":3,\"e\":5}"));
            // c is still N+1's (not counted twice), d is its second new column, e is past N+1's allowance of 2.
            assertThat(more.rejectedRows()).containsExactly(1);
            try (VectorSchemaRoot kept = more.root()) {
                assertThat(names(kept)).containsExactly("seq", "c", "d");
            }
            // The table bound (7 with _inserted_at) counts N's landed columns and N+1's: seq, a, b, c, d + 1 left.
            budget.handedOff();
            ColumnBudget.Admitted last = budget.admit(convert(allocator, "{\"f\":1}", "{\"g\":2}"));
            assertThat(last.rejectedRows()).containsExactly(1);
            last.root().close();
        }
    }

    @Test
    void keysInEverNewCasingsCountAgainstThePerFlushBoundAndTheirRecordsAreSetAside() {
        try (BufferAllocator allocator = new RootAllocator()) {
            ColumnBudget budget = new ColumnBudget(1_000, 20, allocator, name -> true);
            budget.flushed(List.of("seq", "props_variant", "_inserted_at"));
            Random random = new Random(5);
            List<String> records = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                StringBuilder key = new StringBuilder();
                for (char ch : "props_variant".toCharArray()) {
                    key.append(random.nextBoolean() ? Character.toUpperCase(ch) : ch);
                }
                records.add("{\"seq\":" + i + ",\"" + key + "\":1}");
            }

            ColumnBudget.Admitted admitted = budget.admit(convert(allocator, records.toArray(String[]::new)));

            try (VectorSchemaRoot kept = admitted.root()) {
                // The live spelling and at most 20 others: the buffer's columns stay bounded.
                assertThat(kept.getSchema().getFields()).hasSizeLessThanOrEqualTo(2 + 20);
                assertThat(kept.getRowCount() + admitted.rejectedRows().length).isEqualTo(500);
                assertThat(admitted.rejectedRows().length).isGreaterThan(300);
            }
            // The live spelling itself is never a new column.
            budget.handedOff();
            ColumnBudget.Admitted live = budget.admit(convert(allocator, "{\"seq\":1,\"props_variant\":2}"));
            assertThat(live.rejectedRows()).isEmpty();
            live.root().close();
        }
    }

    private static VectorSchemaRoot convert(BufferAllocator allocator, String... json) {
        List<byte[]> values = new ArrayList<>();
        for (String j : json) {
            values.add(j.getBytes(StandardCharsets.UTF_8));
        }
        ConvertedBatch converted = new JsonToArrow(allocator).convert(values);
        return converted.root();
    }

    private static List<String> names(VectorSchemaRoot root) {
        return root.getSchema().getFields().stream().map(Field::getName).toList();
    }
}
