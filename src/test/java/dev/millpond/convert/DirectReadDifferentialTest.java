package dev.millpond.convert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.millpond.testsupport.events.PostHogEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The direct reader (records read from their bytes, canonical nested values copied) against the Jackson path with the
 * nested-value writer (the reference): for every generated batch, the same rows, failures with the same reasons, and
 * byte-identical columns.
 */
class DirectReadDifferentialTest {
    private BufferAllocator allocator;
    private JsonToArrow direct;
    private JsonToArrow reference;

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator();
        direct = new JsonToArrow(allocator, true, false);
        reference = new JsonToArrow(allocator, false, false);
    }

    @AfterEach
    void tearDown() {
        assertThat(allocator.getAllocatedMemory()).as("leaked Arrow memory").isZero();
        allocator.close();
    }

    @Test
    void noisyRecordsConvertExactlyAsTheJacksonPathConvertsThem() {
        long records = 0;
        int batches = Integer.getInteger("directread.batches", 200); // per seed; ~100 records each
        for (long seed : new long[] {11, 22, 33, 44}) {
            Random random = new Random(seed);
            NoisyJson gen = new NoisyJson(random);
            for (int batch = 0; batch < batches; batch++) {
                List<byte[]> values = new ArrayList<>();
                int n = 1 + random.nextInt(200);
                for (int i = 0; i < n; i++) {
                    values.add(gen.record());
                }
                assertSame(values, "seed " + seed + " batch " + batch);
                records += n;
            }
        }
        assertThat(records).isGreaterThan(batches * 4L * 90);
        // Both paths are exercised: most records are read directly, and plenty fall back.
        assertThat(direct.directReads).isGreaterThan(records / 3).isLessThan(records * 9 / 10);
    }

    @Test
    void wideNestedObjectsAreCopiedAndARepeatedKeyAnywhereFallsBack() {
        List<byte[]> values = new ArrayList<>();
        for (int keys : new int[] {63, 64, 65, 500, 3000, 20_000}) {
            StringBuilder wide = new StringBuilder("{\"w\":{");
            for (int i = 0; i < keys; i++) {
                wide.append(i > 0 ? "," : "").append("\"key").append(i).append("\":").append(i);
            }
            String distinct = wide.append("}}").toString();
            values.add(distinct.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            for (int at : new int[] {1, keys / 2, keys - 1}) {
                // The same object with key number `at` renamed to repeat key 0.
                String repeated = distinct.replace("\"key" + at + "\":", "\"key0\":");
                values.add(repeated.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        assertThat(assertSame(values, "wide")).isZero();
        assertThat(direct.directReads).isEqualTo(6); // the distinct ones; a repeated key is merged on the Jackson path
    }

    @Test
    void randomJsonRecordsConvertExactlyAsTheJacksonPathConvertsThem() {
        for (long seed : new long[] {1, 2, 3, 42, 1234}) {
            Random random = new Random(seed);
            RandomJson gen = new RandomJson(random);
            for (int batch = 0; batch < 100; batch++) {
                List<byte[]> values = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    values.add(gen.record());
                }
                assertSame(values, "seed " + seed + " batch " + batch);
            }
        }
        assertThat(direct.directReads).isGreaterThan(10_000);
    }

    @Test
    void deepNestingAroundTheParsersLimitConvertsAsTheJacksonPath() {
        Random random = new Random(5);
        NoisyJson gen = new NoisyJson(random);
        int limit = com.fasterxml.jackson.core.StreamReadConstraints.defaults().getMaxNestingDepth();
        List<byte[]> values = new ArrayList<>();
        for (int depth : new int[] {1, 2, 10, 63, 64, 65, 200, limit - 2, limit - 1, limit, limit + 1, limit + 50}) {
            values.add(gen.deepRecord(depth));
        }
        // The record's object counts as a level: a value nested limit - 1 deep is the deepest accepted.
        assertThat(assertSame(values, "deep")).isEqualTo(3);
    }

    @Test
    void benchmarkEventsAreAllReadDirectlyAndMatch() {
        List<byte[]> events = PostHogEvents.events(0, 20_000);
        for (int from = 0; from < events.size(); from += 1000) {
            assertSame(events.subList(from, from + 1000), "events from " + from);
        }
        assertThat(direct.directReads).isEqualTo(20_000);
    }

    private static boolean sameCell(FieldVector va, FieldVector vb, int i) {
        if (va.isNull(i) || vb.isNull(i)) {
            return va.isNull(i) && vb.isNull(i);
        }
        if (va instanceof VarCharVector sa) {
            return java.util.Arrays.equals(sa.get(i), ((VarCharVector) vb).get(i));
        }
        if (va instanceof Float8Vector fa) {
            return Double.doubleToRawLongBits(fa.get(i)) == Double.doubleToRawLongBits(((Float8Vector) vb).get(i));
        }
        return va.getObject(i).equals(vb.getObject(i));
    }

    /** Converts the batch both ways and asserts the results are identical; returns how many values failed. */
    private int assertSame(List<byte[]> values, String what) {
        try (ConvertedBatch a = direct.convert(values); ConvertedBatch b = reference.convert(values)) {
            assertThat(a.rows()).as(what).isEqualTo(b.rows());
            assertThat(a.failed()).as(what).isEqualTo(b.failed());
            assertThat(a.failures()).as(what).isEqualTo(b.failures());
            assertThat(a.nbytes()).as(what).isEqualTo(b.nbytes());
            assertThat(a.root() == null).as(what).isEqualTo(b.root() == null);
            if (a.root() == null) {
                return a.failed();
            }
            assertThat(a.root().getSchema()).as(what).isEqualTo(b.root().getSchema());
            for (int c = 0; c < a.root().getFieldVectors().size(); c++) {
                FieldVector va = a.root().getVector(c);
                FieldVector vb = b.root().getVector(c);
                String col = what + " column " + va.getName();
                assertThat(va.getValueCount()).as(col).isEqualTo(vb.getValueCount());
                for (int i = 0; i < va.getValueCount(); i++) {
                    // Plain comparisons per cell (this runs millions of times); assertions only to report a mismatch.
                    if (!sameCell(va, vb, i)) {
                        String row = col + " row " + i;
                        assertThat(va.isNull(i)).as(row).isEqualTo(vb.isNull(i));
                        assertThat(String.valueOf(va.getObject(i))).as(row).isEqualTo(String.valueOf(vb.getObject(i)));
                        assertThat(va instanceof VarCharVector ? ((VarCharVector) va).get(i) : null).as(row)
                                .isEqualTo(vb instanceof VarCharVector ? ((VarCharVector) vb).get(i) : null);
                        throw new AssertionError(row + ": differs");
                    }
                }
            }
            return a.failed();
        }
    }
}
