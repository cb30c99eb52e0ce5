package dev.millpond.stages;

import dev.millpond.observability.MillpondMetrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.Text;

/** Builds small roots from Java values and reads them back; a metrics registry to assert counters on. */
final class Batches {
    private Batches() {
    }

    /** A column of one Java type: Long → int64, Double → double, Boolean → bool, String → varchar. */
    record Column(String name, Class<?> type, List<Object> values) {
    }

    static Column col(String name, Class<?> type, Object... values) {
        return new Column(name, type, Arrays.asList(values));
    }

    static VectorSchemaRoot root(BufferAllocator allocator, Column... columns) {
        List<FieldVector> vectors = new ArrayList<>();
        int rows = columns.length == 0 ? 0 : columns[0].values().size();
        for (Column c : columns) {
            vectors.add(vector(allocator, c));
        }
        VectorSchemaRoot root = new VectorSchemaRoot(vectors);
        root.setRowCount(rows);
        return root;
    }

    static FieldVector vector(BufferAllocator allocator, Column c) {
        int n = c.values().size();
        if (c.type() == Long.class) {
            BigIntVector v = new BigIntVector(c.name(), allocator);
            v.allocateNew(n);
            for (int i = 0; i < n; i++) {
                if (c.values().get(i) != null) {
                    v.set(i, ((Number) c.values().get(i)).longValue());
                }
            }
            v.setValueCount(n);
            return v;
        }
        if (c.type() == Double.class) {
            Float8Vector v = new Float8Vector(c.name(), allocator);
            v.allocateNew(n);
            for (int i = 0; i < n; i++) {
                if (c.values().get(i) != null) {
                    v.set(i, ((Number) c.values().get(i)).doubleValue());
                }
            }
            v.setValueCount(n);
            return v;
        }
        if (c.type() == Boolean.class) {
            BitVector v = new BitVector(c.name(), allocator);
            v.allocateNew(n);
            for (int i = 0; i < n; i++) {
                if (c.values().get(i) != null) {
                    v.set(i, (Boolean) c.values().get(i) ? 1 : 0);
                }
            }
            v.setValueCount(n);
            return v;
        }
        VarCharVector v = new VarCharVector(c.name(), allocator);
        v.allocateNew(n);
        for (int i = 0; i < n; i++) {
            if (c.values().get(i) != null) {
                v.setSafe(i, c.values().get(i).toString().getBytes(StandardCharsets.UTF_8));
            }
        }
        v.setValueCount(n);
        return v;
    }

    /** Column values as Long / Double / Boolean / String (uuid as canonical text) / null. */
    static List<Object> values(VectorSchemaRoot root, String column) {
        FieldVector v = root.getVector(column);
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < root.getRowCount(); i++) {
            Object o = v.isNull(i) ? null : v.getObject(i);
            out.add(o instanceof Text t ? t.toString() : o);
        }
        return out;
    }

    static MillpondMetrics metrics() {
        return new MillpondMetrics(new SimpleMeterRegistry(), "t-events", "");
    }

    /** The value of counter {@code name} (Micrometer dotted name) with label {@code key=value}; 0 if absent. */
    static double counter(MillpondMetrics metrics, String name, String key, String value) {
        Counter c = metrics.registry().find(name).tag(key, value).counter();
        return c == null ? 0 : c.count();
    }
}
