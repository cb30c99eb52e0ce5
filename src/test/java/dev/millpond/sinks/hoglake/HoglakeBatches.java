package dev.millpond.sinks.hoglake;

import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.vocabulary.UuidVector;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * Arrow flushes of the types the converter and the coercion stages hand a sink (int64, float64, bool, utf8,
 * timestamp[us, UTC], the uuid extension, nulls), built column by column; the caller owns and closes the roots.
 */
final class HoglakeBatches implements AutoCloseable {

    private final BufferAllocator allocator;
    private final List<VectorSchemaRoot> roots = new ArrayList<>();

    HoglakeBatches(BufferAllocator allocator) {
        this.allocator = allocator;
    }

    /** One batch under construction: {@code rows} rows, columns added by name. */
    final class Batch {
        private final int rows;
        private final List<FieldVector> vectors = new ArrayList<>();

        Batch(int rows) {
            this.rows = rows;
        }

        Batch longs(String name, IntFunction<Long> value) {
            BigIntVector v = new BigIntVector(name, allocator);
            v.allocateNew(rows);
            for (int i = 0; i < rows; i++) {
                Long x = value.apply(i);
                if (x == null) {
                    v.setNull(i);
                } else {
                    v.set(i, x);
                }
            }
            return add(v);
        }

        Batch doubles(String name, IntFunction<Double> value) {
            Float8Vector v = new Float8Vector(name, allocator);
            v.allocateNew(rows);
            for (int i = 0; i < rows; i++) {
                Double x = value.apply(i);
                if (x == null) {
                    v.setNull(i);
                } else {
                    v.set(i, x);
                }
            }
            return add(v);
        }

        Batch bools(String name, IntFunction<Boolean> value) {
            BitVector v = new BitVector(name, allocator);
            v.allocateNew(rows);
            for (int i = 0; i < rows; i++) {
                Boolean x = value.apply(i);
                if (x == null) {
                    v.setNull(i);
                } else {
                    v.set(i, x ? 1 : 0);
                }
            }
            return add(v);
        }

        Batch strings(String name, IntFunction<String> value) {
            VarCharVector v = new VarCharVector(name, allocator);
            v.allocateNew(rows);
            for (int i = 0; i < rows; i++) {
                String x = value.apply(i);
                if (x == null) {
                    v.setNull(i);
                } else {
                    v.setSafe(i, x.getBytes(StandardCharsets.UTF_8));
                }
            }
            return add(v);
        }

        Batch timestamps(String name, IntFunction<Long> micros) {
            TimeStampMicroTZVector v = new TimeStampMicroTZVector(name, allocator, "UTC");
            v.allocateNew(rows);
            for (int i = 0; i < rows; i++) {
                Long x = micros.apply(i);
                if (x == null) {
                    v.setNull(i);
                } else {
                    v.set(i, x);
                }
            }
            return add(v);
        }

        Batch uuids(String name, IntFunction<UUID> value) {
            UuidVector v = new UuidVector(name, allocator);
            for (int i = 0; i < rows; i++) {
                UUID x = value.apply(i);
                if (x == null) {
                    v.setNull(i);
                } else {
                    v.setSafe(i, x.getMostSignificantBits(), x.getLeastSignificantBits());
                }
            }
            return add(v);
        }

        private Batch add(FieldVector v) {
            v.setValueCount(rows);
            vectors.add(v);
            return this;
        }

        VectorSchemaRoot root() {
            VectorSchemaRoot root = new VectorSchemaRoot(vectors);
            root.setRowCount(rows);
            roots.add(root);
            return root;
        }
    }

    Batch batch(int rows) {
        return new Batch(rows);
    }

    /** A flush of {@code roots} covering offsets {@code first..first+rows-1} of partition 0 of {@code topic}. */
    static FlushBatch flush(String topic, long first, VectorSchemaRoot... roots) {
        long rows = 0;
        for (VectorSchemaRoot r : roots) {
            rows += r.getRowCount();
        }
        return new FlushBatch(roots[0].getSchema(), List.of(roots), rows,
                List.of(new OffsetRange(topic, 0, first, first + rows - 1)));
    }

    /** A seeded event-shaped batch: id, team_id in 1..teams, name from {@code names}, score, flag, ts, uuid. */
    Batch events(Random random, int rows, long firstId, int teams, List<String> names) {
        long[] ids = new long[rows];
        for (int i = 0; i < rows; i++) {
            ids[i] = firstId + i;
        }
        long base = 1_788_609_600_000_000L;
        return batch(rows)
                .longs("id", i -> ids[i])
                .longs("team_id", i -> random.nextInt(10) == 0 ? null : (long) (1 + random.nextInt(teams)))
                .strings("name", i -> random.nextInt(8) == 0 ? null : names.get(random.nextInt(names.size())))
                .doubles("score", i -> random.nextInt(6) == 0 ? null : random.nextGaussian())
                .bools("flag", i -> random.nextBoolean())
                .timestamps("ts", i -> base + random.nextInt(1_000_000_000))
                .uuids("uuid", i -> new UUID(random.nextLong(), random.nextLong()));
    }

    @Override
    public void close() {
        roots.forEach(VectorSchemaRoot::close);
        roots.clear();
    }
}
