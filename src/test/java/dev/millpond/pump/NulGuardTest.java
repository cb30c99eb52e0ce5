package dev.millpond.pump;

import dev.millpond.convert.ConvertedBatch;
import dev.millpond.convert.JsonToArrow;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Rows holding U+0000 in a guarded column leave the batch; the others keep their order and their source records. */
class NulGuardTest {

    @RepeatedTest(20)
    void exactlyTheRowsWithANulInAGuardedColumnLeaveAndTheRestKeepTheirSources(RepetitionInfo repetition) {
        Random random = new Random(repetition.getCurrentRepetition());
        try (RootAllocator allocator = new RootAllocator()) {
            List<byte[]> values = new ArrayList<>();
            List<Integer> expectedRefused = new ArrayList<>();
            int rows = 1 + random.nextInt(40);
            for (int i = 0; i < rows; i++) {
                boolean inKey = random.nextInt(4) == 0;
                boolean elsewhere = random.nextInt(4) == 0;
                String json = "{\"id\":" + i + ",\"Event\":\"" + (inKey ? "a\\u0000" : "a") + i + "\",\"note\":\""
                        + (elsewhere ? "\\u0000" : "") + "n\",\"nested\":{\"k\":\"\\u0000\"}}";
                values.add(json.getBytes(StandardCharsets.UTF_8));
                if (inKey) {
                    expectedRefused.add(i);
                }
            }
            ConvertedBatch converted = new JsonToArrow(allocator).convert(values);
            int[] valueOfRow = new int[rows];
            for (int i = 0; i < rows; i++) {
                valueOfRow[i] = 100 + i;
            }

            NulGuard.Guarded guarded = new NulGuard(Set.of("event", "nested")).admit(converted.root());

            assertThat(guarded.refusedRows()).containsExactly(expectedRefused.stream().mapToInt(Integer::intValue).toArray());
            int[] kept = guarded.rowsOf(valueOfRow);
            assertThat(kept).hasSize(rows - expectedRefused.size());
            if (guarded.root() == null) {
                assertThat(kept).isEmpty();
            } else {
                try (VectorSchemaRoot root = guarded.root()) {
                    assertThat(root.getRowCount()).isEqualTo(kept.length);
                    for (int k = 0; k < kept.length; k++) {
                        assertThat(root.getVector("id").getObject(k)).as("row %d keeps its source", k)
                                .isEqualTo((long) (kept[k] - 100));
                    }
                }
            }
            assertThat(guarded.firstColumn()).isEqualTo(expectedRefused.isEmpty() ? null : "Event");
        }
    }

    @Test
    void withoutGuardedColumnsTheBatchIsReturnedAsItIs() {
        try (RootAllocator allocator = new RootAllocator()) {
            ConvertedBatch converted = new JsonToArrow(allocator).convert(List.of(
                    "{\"event\":\"x\\u0000y\"}".getBytes(StandardCharsets.UTF_8)));
            NulGuard.Guarded guarded = new NulGuard(Set.of()).admit(converted.root());
            assertThat(guarded.root()).isSameAs(converted.root());
            assertThat(guarded.refusedRows()).isEmpty();
            guarded.root().close();
        }
    }
}
